// Float digits for value_format.cc, as CPython's dtoa gives them. glibc's
// printf is correctly rounded as CPython's dtoa is: '%.Ne' gives the N+1
// significant digits of mode 2, '%.Nf' mode 3; repr's shortest digits are
// the fewest significant digits whose correctly rounded value reads back as
// the same double.
#include "float_digits.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace spine::compiler {

/** |x| to @p sig significant digits, correctly rounded (dtoa mode 2); trailing zeros dropped. */
void SignificantDigits(double x, int sig, FloatDigits& out) {
  char buf[860];
  int len = std::snprintf(buf, sizeof buf, "%.*e", sig - 1, std::fabs(x));
  int e = 0;
  out.n = 0;
  for (int i = 0; i < len && buf[i] != 'e'; ++i) {
    if (buf[i] != '.') out.d[out.n++] = buf[i];
    e = i + 2;
  }
  int exp = 0;
  bool neg = buf[e] == '-';
  for (int i = e + 1; i < len; ++i) exp = exp * 10 + (buf[i] - '0');
  out.decpt = (neg ? -exp : exp) + 1;
  while (out.n > 1 && out.d[out.n - 1] == '0') --out.n;
  if (out.n == 1 && out.d[0] == '0') out.decpt = 1;
}

namespace {

/** Whether the @p n digits @p d with decimal point after @p decpt read back as @p a. */
bool ReadsBack(const char* d, int n, int decpt, double a) {
  char text[48];
  int t = 0;
  text[t++] = d[0];
  text[t++] = '.';
  for (int j = 1; j < n; ++j) text[t++] = d[j];
  std::snprintf(text + t, sizeof text - static_cast<size_t>(t), "e%d", decpt - 1);
  return std::strtod(text, nullptr) == a;
}

/** Add one unit in the last of @p n digits (a carry out of the first makes 10...0, one place up). */
void IncrementDigits(char* d, int n, int& decpt) {
  int i = n - 1;
  while (i >= 0 && d[i] == '9') d[i--] = '0';
  if (i < 0) {
    d[0] = '1';
    decpt += 1;
  } else {
    d[i] = static_cast<char>(d[i] + 1);
  }
}

/** @p out = @p n digits of @p d, trailing zeros dropped. */
void TakeDigits(const char* d, int n, int decpt, FloatDigits& out) {
  while (n > 1 && d[n - 1] == '0') --n;
  std::memcpy(out.d, d, static_cast<size_t>(n));
  out.n = n, out.decpt = decpt;
  if (n == 1 && d[0] == '0') out.decpt = 1;
}

}  // namespace

/**
 * repr's digits (dtoa mode 0): the fewest significant digits that read back as @p a (>= 0).
 * A normal double's rounding interval is far narrower than half a unit of the 15th digit, so
 * if any 15 digits or fewer read back, the correctly rounded 15 do, and their zeros stripped
 * are the shortest; else 16 if they read back, else 17. The 15 and 16 digits are cut from the
 * 17 printf gives, which is exact except at a tie of the cut digits (5 or 50): printf decides
 * it. A subnormal has fewer bits: the fewest digits are searched for (reading back is
 * monotonic in the count of correctly rounded digits).
 */
void ShortestDigits(double a, FloatDigits& out) {
  if (a < 2.2250738585072014e-308 && a != 0.0) {
    int lo = 1, hi = 17;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      SignificantDigits(a, mid, out);
      if (ReadsBack(out.d, out.n, out.decpt, a)) hi = mid;
      else lo = mid + 1;
    }
    SignificantDigits(a, lo, out);
    return;  // no power of two: the doubles around are evenly spaced
  }
  SignificantDigits(a, 17, out);
  char d17[17];
  int n17 = out.n, decpt17 = out.decpt;
  std::memcpy(d17, out.d, static_cast<size_t>(n17));
  while (n17 < 17) d17[n17++] = '0';
  bool found = a == 0.0;
  for (int p = 15; p <= 16 && !found; ++p) {
    char d[17];
    int decpt = decpt17;
    std::memcpy(d, d17, static_cast<size_t>(p));
    bool tie = d17[p] == '5' && (p == 16 || d17[p + 1] == '0');
    if (tie) {
      FloatDigits exact;
      SignificantDigits(a, p, exact);
      decpt = exact.decpt;
      for (int i = 0; i < p; ++i) d[i] = i < exact.n ? exact.d[i] : '0';
    } else if (d17[p] >= '5') {
      IncrementDigits(d, p, decpt);
    }
    if (ReadsBack(d, p, decpt, a)) {
      TakeDigits(d, p, decpt, out);
      found = true;
    }
  }
  if (!found) TakeDigits(d17, 17, decpt17, out);
  // At a power of two the doubles below are twice as close as those above: a shorter
  // decimal just above may read back where the closest one (below) does not.
  uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  if ((bits & ((uint64_t{1} << 52) - 1)) != 0) return;
  for (int p = 1; p < out.n; ++p) {
    FloatDigits up;
    SignificantDigits(a, p, up);
    for (int k = up.n; k < p; ++k) up.d[k] = '0';  // the p digits, trailing zeros back
    IncrementDigits(up.d, p, up.decpt);
    if (ReadsBack(up.d, p, up.decpt, a)) {
      TakeDigits(up.d, p, up.decpt, out);
      return;
    }
  }
}

/**
 * CPython's format_float_short layout of @p g (mode 'g' or 'r' with @p precision):
 * fixed or exponent notation, zeros padded to vdigits_end, '.0' added to integers
 * if @p add_dot_0, the point kept under '#'.
 */
int LayoutShort(const FloatDigits& g, char code, int precision, bool add_dot_0, bool alt, char* p) {
  int decpt = g.decpt, n = g.n, exp = 0;
  bool use_exp = false;
  int vend = n;
  if (code == 'g') {
    if (decpt <= -4 || decpt > (add_dot_0 ? precision - 1 : precision)) use_exp = true;
    if (alt) vend = precision;
  } else if (decpt <= -4 || decpt > 16) {
    use_exp = true;
  }
  if (use_exp) exp = decpt - 1, decpt = 1;
  int vstart = decpt <= 0 ? decpt - 1 : 0;
  if (!use_exp && add_dot_0) vend = vend > decpt ? vend : decpt + 1;
  else vend = vend > decpt ? vend : decpt;
  char* start = p;
  auto zeros = [&](int k) { for (int i = 0; i < k; ++i) *p++ = '0'; };
  if (decpt <= 0) {
    zeros(decpt - vstart);
    *p++ = '.';
    zeros(-decpt);
  } else {
    zeros(-vstart);
  }
  if (0 < decpt && decpt <= n) {
    for (int i = 0; i < decpt; ++i) *p++ = g.d[i];
    *p++ = '.';
    for (int i = decpt; i < n; ++i) *p++ = g.d[i];
  } else {
    for (int i = 0; i < n; ++i) *p++ = g.d[i];
  }
  if (n < decpt) {
    zeros(decpt - n);
    *p++ = '.';
    zeros(vend - decpt);
  } else {
    zeros(vend - n);
  }
  if (p[-1] == '.' && !alt) --p;
  if (use_exp) {
    *p++ = 'e';
    *p++ = exp < 0 ? '-' : '+';
    int a = exp < 0 ? -exp : exp;
    if (a >= 100) *p++ = static_cast<char>('0' + a / 100);
    *p++ = static_cast<char>('0' + a / 10 % 10);
    *p++ = static_cast<char>('0' + a % 10);
  }
  return static_cast<int>(p - start);
}

}  // namespace spine::compiler
