/**
 * @file pyround.h
 * @brief round() with CPython's meaning: of a float to an int (half to even),
 * of a float to ndigits places (the exact binary value rounded half to even,
 * as float___round__'s dtoa does, then read back correctly rounded), of an
 * int to a multiple of 10**-ndigits (half to even). What cannot be shown
 * exact here (a result beyond int64, digits beyond one exact division) goes
 * back to CPython.
 */
#ifndef SPINE_COMPILER_CODEGEN_PYROUND_H_
#define SPINE_COMPILER_CODEGEN_PYROUND_H_

#include "spine/compiler/codegen/arith.h"

namespace spine_cg {

/** round(x) of a float: an int; NaN is CPython's ValueError, infinities its OverflowError (raised there). */
inline int64_t round_f(double x) {
  if (x != x) Raise(SPINE_FAULT_VALUE, "cannot convert float NaN to integer");
  double r = __builtin_round(x);
  if (__builtin_fabs(x - r) == 0.5) r = 2.0 * __builtin_round(x / 2.0);  // a tie: the even neighbour
  return int_f(r);
}

/** x.is_integer(): finite and without a fraction. */
inline bool float_is_integer(double x) { return __builtin_isfinite(x) && __builtin_floor(x) == x; }

/** 10**k as a double: exact for 0 <= k <= 22 (every such power has at most 53 significant bits). */
inline double pow10_exact(int k) {
  double p = 1.0;
  for (int i = 0; i < k; ++i) p *= 10.0;
  return p;
}

/** The gap from finite @p ax >= 0 to the next double up. */
inline double ulp_above(double ax) {
  uint64_t bits;
  __builtin_memcpy(&bits, &ax, sizeof bits);
  ++bits;
  double next;
  __builtin_memcpy(&next, &bits, sizeof next);
  return next - ax;
}

/**
 * round(x, ndigits) of a float. For ndigits >= 0, glibc's "%.*f" writes the
 * exact value rounded half to even (what dtoa mode 3 gives CPython); the
 * digits as an integer M below 2**53 over 10**k (k <= 22) are two exact
 * doubles, so one division is the correctly rounded value strtod would read.
 * Places far finer than x's spacing give x itself. For ndigits < 0 the integer part is rounded in int64 (the fraction only
 * breaks a tie). The sign of a zero result is x's, as CPython's "-0e..." reads.
 */
SPINE_CG_OUTLINE inline double round_fn(double x, int64_t ndigits) {
  if (!__builtin_isfinite(x) || ndigits > 323) return x;
  if (ndigits < -308) return 0.0 * x;
  const double ax = __builtin_fabs(x);
  if (ndigits >= 0) {
    if (ax >= 9007199254740992.0) return x;  // 2**53 and up: an integer, already rounded
    // Places finer than a quarter of x's spacing (ulp * 10**n > 4, with room for an inexact 10**n):
    // the rounded decimal lies within ulp/8 of x, nearer to x than to either neighbour (the one
    // below a power of two is ulp/2 away), so reading it back gives x.
    if (ax != 0.0 && ulp_above(ax) * pow10_exact(static_cast<int>(ndigits)) > 4.0) return x;
    if (ndigits > 22) Raise(SPINE_FAULT_FALLBACK, "round() to more places than one exact division");
    char buf[64];
    __builtin_snprintf(buf, sizeof buf, "%.*f", static_cast<int>(ndigits), ax);
    unsigned __int128 m = 0;
    for (const char* c = buf; *c; ++c) {
      if (*c >= '0' && *c <= '9') m = m * 10 + static_cast<unsigned>(*c - '0');
    }
    int k = static_cast<int>(ndigits);
    while (k > 0 && m % 10 == 0) m /= 10, --k;
    if (m > (static_cast<unsigned __int128>(1) << 53)) Raise(SPINE_FAULT_FALLBACK, "round() to more digits than a double holds exactly");
    return __builtin_copysign(static_cast<double>(static_cast<uint64_t>(m)) / pow10_exact(k), x);
  }
  const int64_t k = -ndigits;
  if (k > 18) {
    if (ax <= 5e18) return __builtin_copysign(0.0, x);  // below half of 10**19 and more: zero
    Raise(SPINE_FAULT_FALLBACK, "round() of a float beyond int64 to tens");
  }
  if (ax >= 9223372036854775808.0) Raise(SPINE_FAULT_FALLBACK, "round() of a float beyond int64 to tens");
  const double whole = __builtin_trunc(ax);
  const uint64_t i = static_cast<uint64_t>(whole);
  uint64_t p = 1;
  for (int64_t j = 0; j < k; ++j) p *= 10;
  uint64_t q = i / p;
  const uint64_t r = i % p, half = p / 2;
  if (r > half || (r == half && (ax > whole || (q & 1)))) ++q;
  return __builtin_copysign(static_cast<double>(q * p), x);  // below 1.1e19: no uint64 overflow
}

/** round(x, ndigits) of an int: x itself for ndigits >= 0, else the nearest multiple of 10**-ndigits (ties to even). */
inline int64_t round_in(int64_t x, int64_t ndigits) {
  if (ndigits >= 0) return x;
  if (ndigits < -19) return 0;  // 10**20 / 2 is beyond any int64
  __int128 p = 1;
  for (int64_t j = 0; j < -ndigits; ++j) p *= 10;
  __int128 q = x / p, r = x % p;
  if (r < 0) r += p, --q;  // Python's floor divmod
  if (2 * r > p || (2 * r == p && (q & 1))) ++q;
  const __int128 result = q * p;
  if (result > 9223372036854775807LL || result < -9223372036854775807LL - 1) Overflow();
  return static_cast<int64_t>(result);
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_PYROUND_H_
