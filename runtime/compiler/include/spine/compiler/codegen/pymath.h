/**
 * @file pymath.h
 * @brief The `math` module, `**` and the bit operators with CPython's
 * meaning. Results are libm's (the library CPython calls). CPython's
 * ValueErrors (math domain error, negative shift count) and
 * ZeroDivisionErrors are raised natively with its messages; where CPython
 * gives what native code cannot represent (OverflowError "math range
 * error", an int power with a negative exponent, which is a float, a
 * complex power, any int64 overflow) the call goes back to CPython, which
 * computes the exact answer or raises its own exception.
 */
#ifndef SPINE_COMPILER_CODEGEN_PYMATH_H_
#define SPINE_COMPILER_CODEGEN_PYMATH_H_

#include "spine/compiler/codegen/arith.h"

namespace spine_cg {

/**
 * CPython's math_1 check of @p r computed from @p x: NaN from a number is
 * ValueError("math domain error"); infinity from a finite number is
 * OverflowError("math range error") where CPython says the function can
 * overflow (@p can_overflow: then CPython computes it), else ValueError.
 */
inline double math_checked(double x, double r, bool can_overflow) {
  if (__builtin_isnan(r) && !__builtin_isnan(x)) Raise(SPINE_FAULT_VALUE, "math domain error");
  if (__builtin_isinf(r) && __builtin_isfinite(x)) {
    if (can_overflow) Raise(SPINE_FAULT_FALLBACK, "math range error");
    Raise(SPINE_FAULT_VALUE, "math domain error");
  }
  return r;
}

// The third argument is CPython 3.11's can_overflow for the function (mathmodule.c).
#define SPINE_CG_MATH1(name, expr, can_overflow) \
  inline double math_##name(double x) { return math_checked(x, expr, can_overflow); }
SPINE_CG_MATH1(sqrt, __builtin_sqrt(x), false)
SPINE_CG_MATH1(exp, __builtin_exp(x), true)
SPINE_CG_MATH1(exp2, __builtin_exp2(x), true)
SPINE_CG_MATH1(expm1, __builtin_expm1(x), true)
SPINE_CG_MATH1(sin, __builtin_sin(x), false)
SPINE_CG_MATH1(cos, __builtin_cos(x), false)
SPINE_CG_MATH1(tan, __builtin_tan(x), false)
SPINE_CG_MATH1(asin, __builtin_asin(x), false)
SPINE_CG_MATH1(acos, __builtin_acos(x), false)
SPINE_CG_MATH1(atan, __builtin_atan(x), false)
SPINE_CG_MATH1(sinh, __builtin_sinh(x), true)
SPINE_CG_MATH1(cosh, __builtin_cosh(x), true)
SPINE_CG_MATH1(tanh, __builtin_tanh(x), false)
SPINE_CG_MATH1(fabs, __builtin_fabs(x), false)
SPINE_CG_MATH1(cbrt, __builtin_cbrt(x), false)
// CPython's m_log family: 0 gives -inf (a domain error), negatives NaN, inf itself.
SPINE_CG_MATH1(log, x > 0.0 || __builtin_isnan(x) ? __builtin_log(x) : x == 0.0 ? -__builtin_inf() : __builtin_nan(""),
               false)
SPINE_CG_MATH1(log2, x > 0.0 || __builtin_isnan(x) ? __builtin_log2(x) : x == 0.0 ? -__builtin_inf() : __builtin_nan(""),
               false)
SPINE_CG_MATH1(log10,
               x > 0.0 || __builtin_isnan(x) ? __builtin_log10(x) : x == 0.0 ? -__builtin_inf() : __builtin_nan(""),
               false)
SPINE_CG_MATH1(log1p,
               x > -1.0 || __builtin_isnan(x) ? __builtin_log1p(x) : x == -1.0 ? -__builtin_inf() : __builtin_nan(""),
               false)
#undef SPINE_CG_MATH1

/** math.degrees / math.radians: a plain product by CPython's rounded constants, never an error. */
inline double math_degrees(double x) { return x * (180.0 / 3.141592653589793238462643383279502884); }
inline double math_radians(double x) { return x * (3.141592653589793238462643383279502884 / 180.0); }  /**< See degrees. */

/** math.log(x, base): loghelper(x) / loghelper(base), as CPython 3.11 divides them. */
inline double math_log_base(double x, double base) {
  double num = math_log(x), den = math_log(base);
  if (den == 0.0) Raise(SPINE_FAULT_ZERODIV, "float division by zero");
  return num / den;
}
/** math.atan2 (C99 Annex F gives CPython's special cases). */
inline double math_atan2(double y, double x) { return __builtin_atan2(y, x); }
/** math.copysign. */
inline double math_copysign(double x, double y) { return __builtin_copysign(x, y); }
/** math.fmod: fmod(x, ±inf) is x; NaN from numbers (an infinite x, a zero y) is a domain error. */
inline double math_fmod(double x, double y) {
  if (__builtin_isinf(y) && __builtin_isfinite(x)) return x;
  double r = __builtin_fmod(x, y);
  if (__builtin_isnan(r) && !__builtin_isnan(x) && !__builtin_isnan(y)) Raise(SPINE_FAULT_VALUE, "math domain error");
  return r;
}
/**
 * math.pow (CPython's special cases for infinities and NaN are C99's): from
 * finite operands, NaN or 0 ** negative is ValueError, another infinity an
 * OverflowError (CPython computes it).
 */
inline double math_pow(double x, double y) {
  double r = __builtin_pow(x, y);
  if (__builtin_isfinite(x) && __builtin_isfinite(y) && !__builtin_isfinite(r)) {
    if (__builtin_isnan(r) || x == 0.0) Raise(SPINE_FAULT_VALUE, "math domain error");
    Raise(SPINE_FAULT_FALLBACK, "math range error");
  }
  return r;
}
/**
 * float `**` (float_pow): 0.0 ** finite negative is ZeroDivisionError; a
 * negative base with a fractional exponent gives a complex in Python and an
 * overflow is OverflowError: both computed by CPython.
 */
inline double pow_f(double x, double y) {
  if (x == 0.0 && y < 0.0 && __builtin_isfinite(y)) {
    Raise(SPINE_FAULT_ZERODIV, "0.0 cannot be raised to a negative power");
  }
  double r = __builtin_pow(x, y);
  if (__builtin_isfinite(x) && __builtin_isfinite(y) && !__builtin_isfinite(r)) {
    Raise(SPINE_FAULT_FALLBACK, "complex or too large");
  }
  return r;
}

/** math.floor / math.ceil / math.trunc of a float: an int (NaN, infinities, beyond int64: CPython). */
inline int64_t math_floor(double x) { return int_f(__builtin_floor(x)); }
inline int64_t math_ceil(double x) { return int_f(__builtin_ceil(x)); }   /**< See math_floor. */
inline int64_t math_trunc(double x) { return int_f(x); }                   /**< See math_floor. */
/** math.isnan / isinf / isfinite. */
inline bool math_isnan(double x) { return __builtin_isnan(x); }
inline bool math_isinf(double x) { return __builtin_isinf(x); }            /**< See math_isnan. */
inline bool math_isfinite(double x) { return __builtin_isfinite(x); }      /**< See math_isnan. */

/** math.gcd(a, b): non-negative; gcd(INT64_MIN, 0) is 2**63, beyond int64. */
inline int64_t math_gcd(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  if (x > static_cast<uint64_t>(9223372036854775807LL)) Overflow();
  return static_cast<int64_t>(x);
}
/** math.isqrt: negative is ValueError (CPython says so). */
inline int64_t math_isqrt(int64_t n) {
  if (n < 0) Raise(SPINE_FAULT_FALLBACK, "isqrt() argument must be nonnegative");
  int64_t r = static_cast<int64_t>(__builtin_sqrt(static_cast<double>(n)));
  while (static_cast<__int128>(r) * r > n) --r;
  while (static_cast<__int128>(r + 1) * (r + 1) <= n) ++r;
  return r;
}
/** math.factorial: beyond 20! an int64 overflows; negative is ValueError. */
inline int64_t math_factorial(int64_t n) {
  if (n < 0 || n > 20) Raise(SPINE_FAULT_FALLBACK, "factorial outside int64");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i) r *= i;
  return r;
}

/** int `**`: a negative exponent gives a float in Python, so CPython computes it. */
inline int64_t pow_i(int64_t base, int64_t e) {
  if (e < 0) Raise(SPINE_FAULT_FALLBACK, "int power with a negative exponent");
  int64_t r = 1;
  while (true) {
    if (e & 1) r = mul_i(r, base);
    e >>= 1;
    if (!e) return r;
    base = mul_i(base, base);  // more bits follow, so the result holds base**2: its overflow is the result's
  }
}
/**
 * pow(base, e, mod) of ints (long_pow): mod 0 is ValueError, |mod| 1 gives 0, a
 * negative exponent powers the inverse of base modulo |mod| (ValueError if
 * there is none), and the result has mod's sign. 128-bit products: no overflow.
 */
SPINE_CG_OUTLINE inline int64_t pow_mod(int64_t base, int64_t e, int64_t mod) {
  if (mod == 0) Raise(SPINE_FAULT_VALUE, "pow() 3rd argument cannot be 0");
  const uint64_t m = mod < 0 ? 0 - static_cast<uint64_t>(mod) : static_cast<uint64_t>(mod);
  if (m == 1) return 0;
  __int128 r = static_cast<__int128>(base) % static_cast<__int128>(m);
  uint64_t b = static_cast<uint64_t>(r < 0 ? r + m : r);
  if (e < 0) {  // extended Euclid: b * inverse == 1 (mod m) exactly when gcd(b, m) == 1
    __int128 g0 = m, g1 = b, s0 = 0, s1 = 1;
    while (g1 != 0) {
      __int128 q = g0 / g1, t = g0 - q * g1;
      g0 = g1, g1 = t;
      t = s0 - q * s1;
      s0 = s1, s1 = t;
    }
    if (g0 != 1) Raise(SPINE_FAULT_VALUE, "base is not invertible for the given modulus");
    b = static_cast<uint64_t>(s0 < 0 ? s0 + m : s0);
  }
  uint64_t n = e < 0 ? 0 - static_cast<uint64_t>(e) : static_cast<uint64_t>(e);
  uint64_t result = 1;
  while (n) {
    if (n & 1) result = static_cast<uint64_t>(static_cast<unsigned __int128>(result) * b % m);
    n >>= 1;
    if (n) b = static_cast<uint64_t>(static_cast<unsigned __int128>(b) * b % m);
  }
  if (mod < 0 && result != 0) return static_cast<int64_t>(result - m);  // in [mod + 1, -1]: fits
  return static_cast<int64_t>(result);
}
/** `<<`: a negative count is ValueError (raised natively); bits shifted beyond int64 are an overflow. */
inline int64_t lshift_i(int64_t x, int64_t n) {
  if (n < 0) Raise(SPINE_FAULT_VALUE, "negative shift count");
  if (x == 0) return 0;
  if (n >= 63) Overflow();
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(x) << n);
  if ((r >> n) != x) Overflow();
  return r;
}
/** `>>`: Python's floor shift, which for int64 is the arithmetic shift. */
inline int64_t rshift_i(int64_t x, int64_t n) {
  if (n < 0) Raise(SPINE_FAULT_VALUE, "negative shift count");
  if (n >= 63) return x < 0 ? -1 : 0;
  return x >> n;
}
inline int64_t and_i(int64_t a, int64_t b) { return a & b; }  /**< `&` (two's complement, as Python's). */
inline int64_t or_i(int64_t a, int64_t b) { return a | b; }   /**< `|`. */
inline int64_t xor_i(int64_t a, int64_t b) { return a ^ b; }  /**< `^`. */
inline int64_t invert_i(int64_t a) { return ~a; }             /**< `~`: -a - 1, never overflows. */
inline bool and_b(bool a, bool b) { return a && b; }          /**< bool & bool is a bool. */
inline bool or_b(bool a, bool b) { return a || b; }           /**< bool | bool. */
inline bool xor_b(bool a, bool b) { return a != b; }          /**< bool ^ bool. */

/** `raise` of what native code does not raise itself: CPython runs the function and raises. */
[[noreturn]] inline void raise_in_python() { Raise(SPINE_FAULT_FALLBACK, "raised in Python"); }

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_PYMATH_H_
