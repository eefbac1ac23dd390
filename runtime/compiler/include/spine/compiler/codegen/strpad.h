/**
 * @file strpad.h
 * @brief str methods that pad or remap characters: zfill, ljust/rjust/center,
 * expandtabs, swapcase/title/capitalize, isdecimal/isnumeric. Widths and
 * columns count code points, as CPython's. Case and numeric classes need
 * Unicode tables for non-ASCII text, so CPython answers those (the FALLBACK
 * fault), as for upper()/isdigit() in str.h.
 */
#ifndef SPINE_COMPILER_CODEGEN_STRPAD_H_
#define SPINE_COMPILER_CODEGEN_STRPAD_H_

#include "spine/compiler/codegen/str.h"

namespace spine_cg {

/** @p left copies of @p fill, s, then @p right copies (CPython's pad()). */
SPINE_CG_OUTLINE inline Str PadWith(const Str& s, int64_t left, int64_t right, const Str& fill) {
  CheckSize(left + right);
  int64_t f = fill.bytes();
  char* d;
  Str out = Str::Make((left + right) * f + s.bytes(), &d);
  for (int64_t k = 0; k < left; ++k) __builtin_memcpy(d + k * f, fill.data(), static_cast<size_t>(f));
  __builtin_memcpy(d + left * f, s.data(), static_cast<size_t>(s.bytes()));
  char* tail = d + left * f + s.bytes();
  for (int64_t k = 0; k < right; ++k) __builtin_memcpy(tail + k * f, fill.data(), static_cast<size_t>(f));
  return out;
}

/** The fill character of ljust/rjust/center: one character, else CPython's TypeError. */
inline void CheckFill(const Str& fill) {
  if (fill.bytes() == 0 || str_len(fill) != 1) Raise(SPINE_FAULT_FALLBACK, "fill character not one character");
}

/** s.zfill(width): zeros after a leading sign. */
SPINE_CG_OUTLINE inline Str str_zfill(const Str& s, int64_t width) {
  int64_t len = str_len(s);
  if (len >= width) return s;
  static const char zero = '0';
  Str out = PadWith(s, width - len, 0, Str::View(&zero, 1, 1));
  char* d = const_cast<char*>(out.data());  // fresh, not yet shared
  int64_t fill = width - len;
  if (d[fill] == '+' || d[fill] == '-') d[0] = d[fill], d[fill] = '0';
  return out;
}

/** s.ljust(width[, fill]). */
inline Str str_ljust(const Str& s, int64_t width, const Str& fill = Str::Char(' ')) {
  CheckFill(fill);
  int64_t len = str_len(s);
  return len >= width ? s : PadWith(s, 0, width - len, fill);
}
/** s.rjust(width[, fill]). */
inline Str str_rjust(const Str& s, int64_t width, const Str& fill = Str::Char(' ')) {
  CheckFill(fill);
  int64_t len = str_len(s);
  return len >= width ? s : PadWith(s, width - len, 0, fill);
}
/** s.center(width[, fill]): CPython puts the odd character on the left when width is odd. */
inline Str str_center(const Str& s, int64_t width, const Str& fill = Str::Char(' ')) {
  CheckFill(fill);
  int64_t len = str_len(s);
  if (len >= width) return s;
  int64_t marg = width - len, left = marg / 2 + (marg & width & 1);
  return PadWith(s, left, marg - left, fill);
}

/** s.expandtabs([tabsize]): columns restart after \n and \r; a tabsize <= 0 drops tabs. */
SPINE_CG_OUTLINE inline Str str_expandtabs(const Str& s, int64_t tabsize = 8) {
  int64_t total = 0, col = 0;
  bool tabs = false;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    char c = s.data()[i];
    if (c == '\t') {
      tabs = true;
      int64_t incr = tabsize > 0 ? tabsize - col % tabsize : 0;
      col += incr, total += incr;
      CheckSize(total);
    } else {
      total += 1, col += !IsCont(c);
      if (c == '\n' || c == '\r') col = 0;
    }
  }
  if (!tabs) return s;
  StrBuilder b;
  col = 0;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    char c = s.data()[i];
    if (c == '\t') {
      for (int64_t k = tabsize > 0 ? tabsize - col % tabsize : 0; k > 0; --k, ++col) b.Add(" ", 1);
    } else {
      b.Add(&c, 1);
      col += !IsCont(c);
      if (c == '\n' || c == '\r') col = 0;
    }
  }
  return b.Finish();
}

/** ASCII letter tests. */
inline bool IsAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool IsAsciiLower(char c) { return c >= 'a' && c <= 'z'; }  /**< a-z. */

/** swapcase (0), title (1) or capitalize (2) of ASCII text. */
SPINE_CG_OUTLINE inline Str RecaseAscii(const Str& s, int how) {
  if (!s.Ascii()) Raise(SPINE_FAULT_FALLBACK, "case mapping of non-ASCII text");
  char* d;
  Str out = Str::Make(s.bytes(), &d);
  bool prev_cased = false;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    char c = s.data()[i];
    bool up = IsAsciiUpper(c), low = IsAsciiLower(c);
    bool want_upper = how == 0 ? low : how == 1 ? !prev_cased : i == 0;
    if (want_upper && low) c = static_cast<char>(c - 32);
    if (!want_upper && up) c = static_cast<char>(c + 32);
    prev_cased = up || low;
    d[i] = c;
  }
  return out;
}
/** s.swapcase(). */
inline Str str_swapcase(const Str& s) { return RecaseAscii(s, 0); }
/** s.title(): a letter after a letter is lower case, any other is upper case. */
inline Str str_title(const Str& s) { return RecaseAscii(s, 1); }
/** s.capitalize(). */
inline Str str_capitalize(const Str& s) { return RecaseAscii(s, 2); }

/** s.isdecimal(): of ASCII text, isdigit()'s answer (other text is CPython's in both). */
inline bool str_isdecimal(const Str& s) { return str_isdigit(s); }
/** s.isnumeric(): of ASCII text, isdigit()'s answer (other text is CPython's in both). */
inline bool str_isnumeric(const Str& s) { return str_isdigit(s); }

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_STRPAD_H_
