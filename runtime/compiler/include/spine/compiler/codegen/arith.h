/**
 * @file arith.h
 * @brief int64/float64 arithmetic with Python's meaning: checked int64
 * operations (overflow falls back to CPython), Python's floor division and
 * modulo signs, CPython's float division/modulo, exact int/float compares.
 */
#ifndef SPINE_COMPILER_CODEGEN_ARITH_H_
#define SPINE_COMPILER_CODEGEN_ARITH_H_

#include "spine/compiler/codegen/core.h"

namespace spine_cg {

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
/** 2**e as a double, for -1022 <= e <= 1023 (built from its bits: no libm). */
inline double pow2_f(int e) {
  uint64_t bits = static_cast<uint64_t>(1023 + e) << 52;
  double d;
  __builtin_memcpy(&d, &bits, sizeof d);
  return d;
}
/** Bits in x (0 for 0). */
inline int bitlen_u128(unsigned __int128 x) {
  uint64_t hi = static_cast<uint64_t>(x >> 64);
  if (hi) return 128 - __builtin_clzll(hi);
  uint64_t lo = static_cast<uint64_t>(x);
  return lo ? 64 - __builtin_clzll(lo) : 0;
}
/**
 * int / int as CPython's long_true_divide: the exact quotient rounded once
 * (half to even). Operands up to 2**53 are exact doubles, so one IEEE
 * division is that already; beyond, converting them first would round twice.
 * There the quotient is computed in 128-bit integers with at least 55
 * significant bits and a sticky bit for the remainder, then rounded to 53
 * bits; the scaling by a power of two is exact (|a / b| lies between 2**-63
 * and 2**63).
 */
inline double truediv_i(int64_t a, int64_t b) {
  if (b == 0) Raise(SPINE_FAULT_ZERODIV, "division by zero");
  const int64_t lim = int64_t(1) << 53;
  if (a <= lim && a >= -lim && b <= lim && b >= -lim) return static_cast<double>(a) / static_cast<double>(b);
  const bool negative = (a < 0) != (b < 0);
  const uint64_t ua = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  const uint64_t ub = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  if (ua == 0) return negative ? -0.0 : 0.0;
  int shift = 55 + bitlen_u128(ub) - bitlen_u128(ua);
  if (shift < 0) shift = 0;
  const unsigned __int128 n = static_cast<unsigned __int128>(ua) << shift;
  unsigned __int128 q = n / ub;
  const bool sticky = n % ub != 0;
  const int excess = bitlen_u128(q) - 53;  // >= 2: q has at least 55 bits
  const unsigned __int128 half = static_cast<unsigned __int128>(1) << (excess - 1);
  const unsigned __int128 rest = q & ((half << 1) - 1);
  uint64_t mant = static_cast<uint64_t>(q >> excess);
  if (rest > half || (rest == half && (sticky || (mant & 1)))) ++mant;  // 2**53 at most: still exact
  const double r = static_cast<double>(mant) * pow2_f(excess - shift);
  return negative ? -r : r;
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

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_ARITH_H_
