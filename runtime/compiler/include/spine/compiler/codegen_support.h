/**
 * @file codegen_support.h
 * @brief The one header generated modules include: the module ABI and the
 * helpers that give int64/float64 arithmetic Python's meaning. No standard
 * headers (only compiler builtins), so a small module compiles in well under
 * a second with `g++ -O2`.
 *
 * Errors inside generated code are C++ throws of a POD Fault, caught by the
 * function's `name__c_api` wrapper: nothing crosses the C boundary, and the
 * fast path pays nothing for them.
 */
#ifndef SPINE_COMPILER_CODEGEN_SUPPORT_H_
#define SPINE_COMPILER_CODEGEN_SUPPORT_H_

#include "spine/compiler/module_abi.h"

namespace spine_cg {

/** @brief What generated code throws; kind is a SpineFaultKind, message static. */
struct Fault {
  int kind;             /**< SpineFaultKind. */
  const char* message;  /**< Static text. */
};

/** Throw a Fault (out of the hot path). */
[[noreturn]] __attribute__((noinline, cold)) inline void Raise(int kind, const char* message) {
  throw Fault{kind, message};
}

/** Python ints are unbounded: an int64 overflow means "let CPython compute it". */
[[noreturn]] inline void Overflow() { Raise(SPINE_FAULT_FALLBACK, "int64 overflow"); }

/** a + b, checked. */
inline int64_t add_i(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) Overflow();
  return r;
}
/** a - b, checked. */
inline int64_t sub_i(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) Overflow();
  return r;
}
/** a * b, checked. */
inline int64_t mul_i(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) Overflow();
  return r;
}
/** -a, checked (-INT64_MIN does not fit). */
inline int64_t neg_i(int64_t a) { return sub_i(0, a); }
/** abs(a), checked. */
inline int64_t abs_i(int64_t a) { return a < 0 ? neg_i(a) : a; }

/** a // b with Python's sign rule (rounds toward negative infinity). */
inline int64_t floordiv_i(int64_t a, int64_t b) {
  if (b == 0) Raise(SPINE_FAULT_ZERODIV, "integer division or modulo by zero");
  if (b == -1) return neg_i(a);  // INT64_MIN / -1 traps in C
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
/** a % b with Python's sign rule (the result has b's sign). */
inline int64_t floormod_i(int64_t a, int64_t b) {
  if (b == 0) Raise(SPINE_FAULT_ZERODIV, "integer modulo by zero");
  if (b == -1) return 0;  // INT64_MIN % -1 traps in C
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
/**
 * int / int. CPython divides exactly and rounds once; converting operands
 * above 2**53 first would round twice, so those go back to CPython.
 */
inline double truediv_i(int64_t a, int64_t b) {
  if (b == 0) Raise(SPINE_FAULT_ZERODIV, "division by zero");
  const int64_t lim = int64_t(1) << 53;
  if (a > lim || a < -lim || b > lim || b < -lim) Raise(SPINE_FAULT_FALLBACK, "inexact int division");
  return static_cast<double>(a) / static_cast<double>(b);
}
/** float / float. */
inline double truediv_f(double a, double b) {
  if (b == 0.0) Raise(SPINE_FAULT_ZERODIV, "float division by zero");
  return a / b;
}
/** float % float: CPython's float_rem. */
inline double floormod_f(double a, double b) {
  if (b == 0.0) Raise(SPINE_FAULT_ZERODIV, "float modulo");
  double mod = __builtin_fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = __builtin_copysign(0.0, b);
  }
  return mod;
}
/** float // float: CPython's _float_div_mod. */
inline double floordiv_f(double a, double b) {
  if (b == 0.0) Raise(SPINE_FAULT_ZERODIV, "float floor division by zero");
  double mod = __builtin_fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div != 0.0) {
    double f = __builtin_floor(div);
    if (div - f > 0.5) f += 1.0;
    return f;
  }
  return __builtin_copysign(0.0, a / b);
}

/**
 * Exact comparison of an int with a float (CPython compares the values, not
 * the int rounded to a float): -1, 0, 1, or 2 when d is NaN.
 */
inline int cmp_if(int64_t i, double d) {
  if (d != d) return 2;
  if (d >= 9223372036854775808.0) return -1;
  if (d < -9223372036854775808.0) return 1;
  double t = __builtin_trunc(d);
  int64_t ti = static_cast<int64_t>(t);
  if (i < ti) return -1;
  if (i > ti) return 1;
  if (d > t) return -1;
  if (d < t) return 1;
  return 0;
}
inline bool eq_if(int64_t i, double d) { return cmp_if(i, d) == 0; }   /**< i == d. */
inline bool ne_if(int64_t i, double d) { return cmp_if(i, d) != 0; }   /**< i != d. */
inline bool lt_if(int64_t i, double d) { return cmp_if(i, d) == -1; }  /**< i < d. */
inline bool le_if(int64_t i, double d) { int c = cmp_if(i, d); return c == -1 || c == 0; }  /**< i <= d. */
inline bool gt_if(int64_t i, double d) { return cmp_if(i, d) == 1; }   /**< i > d. */
inline bool ge_if(int64_t i, double d) { int c = cmp_if(i, d); return c == 1 || c == 0; }   /**< i >= d. */
inline bool eq_fi(double d, int64_t i) { return eq_if(i, d); }  /**< d == i. */
inline bool ne_fi(double d, int64_t i) { return ne_if(i, d); }  /**< d != i. */
inline bool lt_fi(double d, int64_t i) { return gt_if(i, d); }  /**< d < i. */
inline bool le_fi(double d, int64_t i) { return ge_if(i, d); }  /**< d <= i. */
inline bool gt_fi(double d, int64_t i) { return lt_if(i, d); }  /**< d > i. */
inline bool ge_fi(double d, int64_t i) { return le_if(i, d); }  /**< d >= i. */

/** int(float): truncation; NaN, infinities and values outside int64 go back to CPython. */
inline int64_t int_f(double d) {
  if (!(d > -9223372036854775809.0 && d < 9223372036854775808.0)) Raise(SPINE_FAULT_FALLBACK, "float out of int64 range");
  return static_cast<int64_t>(d);
}
/** range() step check. */
inline int64_t range_step(int64_t s) {
  if (s == 0) Raise(SPINE_FAULT_VALUE, "range() arg 3 must not be zero");
  return s;
}

/**
 * Native frames are small, but unbounded recursion would overflow the C
 * stack where CPython raises RecursionError; past this depth the call goes
 * back to CPython, which then decides.
 */
struct DepthGuard {
  /** Enter a frame. */
  DepthGuard() {
    if (++Depth() > 800) {
      --Depth();
      Raise(SPINE_FAULT_FALLBACK, "native recursion depth exceeded");
    }
  }
  /** Leave a frame. */
  ~DepthGuard() { --Depth(); }
  DepthGuard(const DepthGuard&) = delete;             /**< Not copyable. */
  DepthGuard& operator=(const DepthGuard&) = delete;  /**< Not assignable. */
  /** Per-thread depth of this module. */
  static int& Depth() {
    static thread_local int depth = 0;
    return depth;
  }
};

/** Report @p kind / @p message through the module context; returns -1 for the wrapper to return. */
inline int Report(const SpineModuleCtx& ctx, int kind, const char* message) {
  if (ctx.set_error) ctx.set_error(kind, message);
  return -1;
}

/** Write an int result. */
inline void SetInt(SpineValue* v, int64_t x) { v->u.v_int = x; v->p = 0; v->t = SPINE_TYPE_INT; }
/** Write a float result. */
inline void SetFloat(SpineValue* v, double x) { v->u.v_int = 0; v->u.v_float = x; v->p = 0; v->t = SPINE_TYPE_FLOAT; }
/** Write a bool result. */
inline void SetBool(SpineValue* v, bool x) { v->u.v_int = x ? 1 : 0; v->p = 0; v->t = SPINE_TYPE_BOOL; }

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_SUPPORT_H_
