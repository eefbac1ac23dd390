/**
 * @file intbase.h
 * @brief Ints as text in another base: int(s, base) of a str with
 * PyLong_FromString's syntax, and bin(), oct(), hex() with CPython's
 * prefixes and signs. What does not fit an int64 is CPython's to compute.
 */
#ifndef SPINE_COMPILER_CODEGEN_INTBASE_H_
#define SPINE_COMPILER_CODEGEN_INTBASE_H_

#include "spine/compiler/codegen/str.h"

namespace spine_cg {

/** The value of digit character @p c in bases up to 36, or 99 for a character that is no digit. */
inline int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

/**
 * int(s, base) as PyLong_FromString reads it: whitespace around, one sign, a
 * 0b/0o/0x prefix when it names the base (base 0: the prefix decides, and a
 * decimal with a leading zero must be zero), single underscores between
 * digits (one may follow a prefix). Non-ASCII text (Unicode digits and
 * spaces) and values beyond int64 go back to CPython.
 */
SPINE_CG_OUTLINE inline int64_t str_to_int(const Str& s, int64_t base = 10) {
  if ((base != 0 && base < 2) || base > 36) Raise(SPINE_FAULT_VALUE, "int() base must be >= 2 and <= 36, or 0");
  const char* p = s.data();
  int64_t n = s.bytes(), i = 0;
  if (!s.Ascii()) Raise(SPINE_FAULT_FALLBACK, "int() of non-ASCII text");
  auto bad = [&]() {
    FaultText t;
    t.Add("invalid literal for int() with base ").Add(base).Add(": ");
    ReprStr(t, s, 200);
    t.Raise(SPINE_FAULT_VALUE);
  };
  while (i < n && IsSpaceCp(static_cast<unsigned char>(p[i]))) ++i;
  while (n > i && IsSpaceCp(static_cast<unsigned char>(p[n - 1]))) --n;
  bool neg = false;
  if (i < n && (p[i] == '+' || p[i] == '-')) neg = p[i++] == '-';
  auto at = [&](int64_t k) { return k < n ? static_cast<char>(p[k] | 0x20) : '\0'; };  // lower case
  int64_t radix = base;
  bool zero_only = false;  // base 0 and "0...": the old octal spelling, valid only for zero
  if (radix == 0) {
    radix = i >= n || p[i] != '0' ? 10 : at(i + 1) == 'x' ? 16 : at(i + 1) == 'o' ? 8 : at(i + 1) == 'b' ? 2 : 0;
    if (radix == 0) zero_only = true, radix = 10;
  }
  if (i < n && p[i] == '0' && ((radix == 16 && at(i + 1) == 'x') || (radix == 8 && at(i + 1) == 'o') ||
                               (radix == 2 && at(i + 1) == 'b'))) {
    i += 2;
    if (i < n && p[i] == '_') ++i;
  }
  if (i >= n || p[i] == '_') bad();
  if (n - i > 4300) Raise(SPINE_FAULT_FALLBACK, "int() of a very long literal");
  unsigned __int128 v = 0;
  bool prev_digit = false, big = false;
  for (; i < n; ++i) {
    char c = p[i];
    if (c == '_' && prev_digit) {
      prev_digit = false;
      continue;
    }
    int d = DigitValue(c);
    if (d >= radix) bad();
    prev_digit = true;
    v = v * static_cast<unsigned>(radix) + static_cast<unsigned>(d);
    if (v > 0x8000000000000000ULL) big = true, v = 0x8000000000000001ULL;  // kept beyond int64, never wrapping
  }
  if (!prev_digit) bad();  // a trailing underscore
  if (zero_only && v != 0) bad();
  if (big || v > (neg ? 0x8000000000000000ULL : 0x7FFFFFFFFFFFFFFFULL)) Overflow();
  uint64_t u = static_cast<uint64_t>(v);
  return neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
}

/** bin(v), oct(v), hex(v): '-' then the prefix then the magnitude's digits (lower case), as CPython writes them. */
SPINE_CG_OUTLINE inline Str int_to_base_text(int64_t v, int bits, char letter) {
  char buf[72];
  int end = sizeof buf, k = end;
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  do {
    buf[--k] = "0123456789abcdef"[u & mask];
    u >>= bits;
  } while (u);
  buf[--k] = letter;
  buf[--k] = '0';
  if (v < 0) buf[--k] = '-';
  return Str::Copy(buf + k, end - k, 1);
}
inline Str int_bin(int64_t v) { return int_to_base_text(v, 1, 'b'); }  /**< bin(v). */
inline Str int_oct(int64_t v) { return int_to_base_text(v, 3, 'o'); }  /**< oct(v). */
inline Str int_hex(int64_t v) { return int_to_base_text(v, 4, 'x'); }  /**< hex(v). */

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_INTBASE_H_
