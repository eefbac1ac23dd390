/**
 * @file format.h
 * @brief format(x, spec) of int, bool, float and str, as CPython's
 * Python/formatter_unicode.c and Python/pystrtod.c lay it out: the same
 * parse of the spec, the same digits, the same sign, prefix, grouping and
 * padding rules (zeros grouped into the padding, '^' leaning left, 'z').
 *
 * The frontend compiles only specs CPython accepts for the value's type
 * (it asks CPython when compiling), so parsing here never meets an invalid
 * one. Float digits come from glibc's printf, which is correctly rounded
 * as CPython's dtoa is: '%.Ne' gives the N+1 significant digits CPython's
 * mode 2 returns, '%.Nf' its mode 3; repr's shortest digits are the fewest
 * significant digits whose correctly rounded value reads back as the same
 * double. What cannot be laid out natively (a '%c' beyond U+10FFFF, a
 * result beyond the native size limit) goes back to CPython.
 */
#ifndef SPINE_COMPILER_CODEGEN_FORMAT_H_
#define SPINE_COMPILER_CODEGEN_FORMAT_H_

#include "spine/compiler/codegen/str.h"

extern "C" double strtod(const char* s, char** end) noexcept;  // libc, as printf: no header needed

namespace spine_cg {

/** @brief A parsed format spec (CPython's InternalFormatSpec). */
struct FormatSpec {
  const char* fill = " ";  /**< The fill character's UTF-8 bytes. */
  int fill_bytes = 1;      /**< Their count. */
  bool fill_is_zero = false;
  char align = 0;          /**< '<', '>', '^', '='; 0 until defaulted. */
  char sign = 0;           /**< '+', '-', ' ' or 0. */
  bool no_neg_0 = false;   /**< 'z'. */
  bool alt = false;        /**< '#'. */
  int64_t width = -1;
  char grouping = 0;       /**< ',' or '_' or 0. */
  int64_t precision = -1;
  char type = 0;
};

/** Bytes of the UTF-8 sequence that starts with @p lead. */
inline int Utf8SeqLen(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }

/** Parse @p spec (valid for the value's type) with @p default_align for an unspecified alignment. */
inline FormatSpec ParseFormatSpec(const Str& spec, char default_align) {
  FormatSpec f;
  const char* p = spec.data();
  int64_t n = spec.bytes(), pos = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '=' || c == '^'; };
  bool fill_given = false, align_given = false;
  int first = n ? Utf8SeqLen(static_cast<unsigned char>(p[0])) : 0;
  if (n > first && is_align(p[first])) {
    f.fill = p, f.fill_bytes = first, f.align = p[first];
    f.fill_is_zero = first == 1 && p[0] == '0';
    fill_given = align_given = true;
    pos = first + 1;
  } else if (n > 0 && is_align(p[0])) {
    f.align = p[0], align_given = true, pos = 1;
  }
  if (pos < n && (p[pos] == '+' || p[pos] == '-' || p[pos] == ' ')) f.sign = p[pos++];
  if (pos < n && p[pos] == 'z') f.no_neg_0 = true, ++pos;
  if (pos < n && p[pos] == '#') f.alt = true, ++pos;
  if (!fill_given && pos < n && p[pos] == '0') {
    f.fill = "0", f.fill_bytes = 1, f.fill_is_zero = true;
    if (!align_given && default_align == '>') f.align = '=', align_given = true;
    ++pos;
  }
  auto number = [&]() {
    int64_t v = -1;
    while (pos < n && p[pos] >= '0' && p[pos] <= '9') v = (v < 0 ? 0 : v) * 10 + (p[pos++] - '0');
    return v;
  };
  f.width = number();
  if (pos < n && (p[pos] == ',' || p[pos] == '_')) f.grouping = p[pos++];
  if (pos < n && p[pos] == '.') {
    ++pos;
    f.precision = number();
  }
  if (pos < n) f.type = p[pos];
  if (!align_given) f.align = default_align;
  return f;
}

/** @brief Output bytes, sized once (native formats stay far below the fault text limit or are built here). */
class FormatOut {
 public:
  explicit FormatOut(int64_t capacity) {
    if (capacity > 0x3fffffff) Raise(SPINE_FAULT_FALLBACK, "formatted text too long for native code");
    p_ = static_cast<char*>(Alloc(static_cast<size_t>(capacity) + 1));
  }
  FormatOut(const FormatOut&) = delete;             /**< Not copyable. */
  FormatOut& operator=(const FormatOut&) = delete;  /**< Not assignable. */
  ~FormatOut() { __builtin_free(p_); }
  /** Append @p k bytes. */
  void Add(const char* s, int64_t k) {
    if (k > 0) __builtin_memcpy(p_ + n_, s, static_cast<size_t>(k));
    n_ += k > 0 ? k : 0;
  }
  /** Append the fill @p times times. */
  void Fill(const FormatSpec& f, int64_t times) {
    for (int64_t i = 0; i < times; ++i) Add(f.fill, f.fill_bytes);
  }
  /** The text as a Str. */
  Str Take() const { return Str::Copy(p_, n_); }

 private:
  char* p_;
  int64_t n_ = 0;
};

/**
 * CPython's _PyUnicode_InsertThousandsGrouping: @p n digits grouped by @p group
 * (0: none) with @p sep, zero-extended to at least @p min_width characters. Writes
 * right-aligned ending at @p end (if not null); returns the character count.
 */
inline int64_t GroupDigits(const char* digits, int64_t n, int64_t min_width, int group, char sep, char* end) {
  if (min_width < 0) min_width = 0;
  int64_t remaining = n, count = 0;
  bool use_sep = false;
  auto emit = [&](int64_t zeros, int64_t chars) {
    count += (use_sep ? 1 : 0) + zeros + chars;
    if (end != nullptr) {
      if (use_sep) *--end = sep;
      for (int64_t i = 0; i < chars; ++i) *--end = digits[remaining - 1 - i];
      for (int64_t i = 0; i < zeros; ++i) *--end = '0';
    }
  };
  if (group > 0) {
    for (;;) {
      int64_t l = remaining > min_width ? remaining : min_width;
      l = l < 1 ? 1 : l;
      l = l < group ? l : group;
      int64_t zeros = l - remaining > 0 ? l - remaining : 0;
      int64_t chars = remaining < l ? (remaining > 0 ? remaining : 0) : l;
      emit(zeros, chars);
      use_sep = true;
      remaining -= chars;
      min_width -= l;
      if (remaining <= 0 && min_width <= 0) return count;
      min_width -= 1;
    }
  }
  int64_t l = remaining > min_width ? remaining : min_width;
  l = l < 1 ? 1 : l;
  emit(l - remaining > 0 ? l - remaining : 0, remaining < l ? (remaining > 0 ? remaining : 0) : l);
  return count;
}

/**
 * CPython's calc_number_widths + fill_number: [lpad][sign][prefix][spad][grouped digits][rest][rpad],
 * where @p rest is the decimal point and everything after the leading digits (or a '%c' character).
 */
inline Str LayoutNumber(const FormatSpec& f, bool negative, const char* prefix, int64_t n_prefix, const char* digits,
                        int64_t n_digits, const char* rest, int64_t n_rest, int group) {
  char sign = negative ? '-' : (f.sign == '+' || f.sign == ' ') ? f.sign : 0;
  int64_t n_sign = sign ? 1 : 0;
  int64_t rest_chars = 0;
  for (int64_t i = 0; i < n_rest; ++i) rest_chars += (static_cast<unsigned char>(rest[i]) & 0xC0) != 0x80;
  int64_t fixed = n_sign + n_prefix + rest_chars;
  int64_t min_width = f.fill_is_zero && f.align == '=' ? f.width - fixed : 0;
  int64_t grouped = n_digits == 0 ? 0 : GroupDigits(digits, n_digits, min_width, group, f.grouping, nullptr);
  int64_t padding = f.width - (fixed + grouped);
  int64_t lpad = 0, spad = 0, rpad = 0;
  if (padding > 0) {
    if (f.align == '<') rpad = padding;
    else if (f.align == '^') lpad = padding / 2, rpad = padding - lpad;
    else if (f.align == '=') spad = padding;
    else lpad = padding;
  }
  FormatOut out((lpad + spad + rpad) * f.fill_bytes + fixed + n_rest + grouped);
  out.Fill(f, lpad);
  if (sign) out.Add(&sign, 1);
  out.Add(prefix, n_prefix);
  out.Fill(f, spad);
  if (grouped) {
    char* g = static_cast<char*>(Alloc(static_cast<size_t>(grouped)));
    GroupDigits(digits, n_digits, min_width, group, f.grouping, g + grouped);
    out.Add(g, grouped);
    __builtin_free(g);
  }
  out.Add(rest, n_rest);
  out.Fill(f, rpad);
  return out.Take();
}

/** Characters (code points) of @p s. */
inline int64_t CodePoints(const char* s, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return c;
}

/** format(s, spec) of a str: at most precision characters, padded to the width. */
SPINE_CG_OUTLINE inline Str format_value(const Str& s, const Str& spec) {
  if (spec.bytes() == 0) return s;
  FormatSpec f = ParseFormatSpec(spec, '<');
  int64_t bytes = s.bytes(), len = CodePoints(s.data(), bytes);
  if (f.precision >= 0 && len > f.precision) {
    int64_t i = 0, seen = 0;
    while (i < bytes && seen < f.precision) i += Utf8SeqLen(static_cast<unsigned char>(s.data()[i])), ++seen;
    bytes = i, len = f.precision;
  }
  int64_t total = f.width > len ? f.width : len;
  int64_t left = f.align == '>' ? total - len : f.align == '^' ? (total - len) / 2 : 0;
  int64_t right = total - len - left;
  if (left == 0 && right == 0 && bytes == s.bytes()) return s;
  FormatOut out((left + right) * f.fill_bytes + bytes);
  out.Fill(f, left);
  out.Add(s.data(), bytes);
  out.Fill(f, right);
  return out.Take();
}

/** The UTF-8 bytes of code point @p c (0 <= c <= 0x10FFFF) into @p out; returns their count. */
inline int EncodeUtf8(int64_t c, char* out) {
  if (c < 0x80) return out[0] = static_cast<char>(c), 1;
  if (c < 0x800) return out[0] = static_cast<char>(0xC0 | (c >> 6)), out[1] = static_cast<char>(0x80 | (c & 0x3F)), 2;
  if (c < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (c >> 12)), out[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (c >> 18)), out[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F)), out[3] = static_cast<char>(0x80 | (c & 0x3F));
  return 4;
}

/** @brief The digits of a finite double (CPython's _Py_dg_dtoa output): no trailing zeros, point after decpt. */
struct FloatDigits {
  char d[800];       /**< Significant digits (mode 2 asks at most 800: the frontend bounds the precision). */
  int n = 0;         /**< Their count (at least 1: zero is "0"). */
  int decpt = 0;     /**< Decimal point position relative to the digits. */
};

/** |x| to @p sig significant digits, correctly rounded (dtoa mode 2); trailing zeros dropped. */
inline void SignificantDigits(double x, int sig, FloatDigits& out) {
  char buf[860];
  int len = __builtin_snprintf(buf, sizeof buf, "%.*e", sig - 1, __builtin_fabs(x));
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

/** Whether the @p n digits @p d with decimal point after @p decpt read back as @p a. */
inline bool ReadsBack(const char* d, int n, int decpt, double a) {
  char text[48];
  int t = 0;
  text[t++] = d[0];
  text[t++] = '.';
  for (int j = 1; j < n; ++j) text[t++] = d[j];
  __builtin_snprintf(text + t, sizeof text - static_cast<size_t>(t), "e%d", decpt - 1);
  return strtod(text, nullptr) == a;
}

/** Add one unit in the last of @p n digits (a carry out of the first makes 10...0, one place up). */
inline void IncrementDigits(char* d, int n, int& decpt) {
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
inline void TakeDigits(const char* d, int n, int decpt, FloatDigits& out) {
  while (n > 1 && d[n - 1] == '0') --n;
  __builtin_memcpy(out.d, d, static_cast<size_t>(n));
  out.n = n, out.decpt = decpt;
  if (n == 1 && d[0] == '0') out.decpt = 1;
}

/**
 * repr's digits (dtoa mode 0): the fewest significant digits that read back as @p a (>= 0).
 * A normal double's rounding interval is far narrower than half a unit of the 15th digit, so
 * if any 15 digits or fewer read back, the correctly rounded 15 do, and their zeros stripped
 * are the shortest; else 16 if they read back, else 17. The 15 and 16 digits are cut from the
 * 17 printf gives, which is exact except at a tie of the cut digits (5 or 50): printf decides
 * it. A subnormal has fewer bits: the fewest digits are searched for (reading back is
 * monotonic in the count of correctly rounded digits).
 */
inline void ShortestDigits(double a, FloatDigits& out) {
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
  __builtin_memcpy(d17, out.d, static_cast<size_t>(n17));
  while (n17 < 17) d17[n17++] = '0';
  bool found = a == 0.0;
  for (int p = 15; p <= 16 && !found; ++p) {
    char d[17];
    int decpt = decpt17;
    __builtin_memcpy(d, d17, static_cast<size_t>(p));
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
  __builtin_memcpy(&bits, &a, sizeof bits);
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
inline int LayoutShort(const FloatDigits& g, char code, int precision, bool add_dot_0, bool alt, char* p) {
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

/** format(x, spec) of a float (CPython's format_float_internal over PyOS_double_to_string). */
SPINE_CG_OUTLINE inline Str format_value(double x, const Str& spec) {
  FormatSpec f = ParseFormatSpec(spec, '>');
  char type = f.type;
  bool add_dot_0 = false, pct = false;
  int precision = static_cast<int>(f.precision);
  if (type == 0) add_dot_0 = true, type = 'r';
  if (type == '%') type = 'f', x *= 100, pct = true;
  if (f.precision < 0) precision = 6;
  else if (type == 'r') type = 'g';
  bool upper = type == 'E' || type == 'F' || type == 'G';
  char code = static_cast<char>(upper ? type + ('a' - 'A') : type);
  // Sign, then the body: at most precision + 330 digits and a few marks (precision <= 800: the frontend).
  char body[1200];
  int len = 0;
  bool negative = __builtin_signbit(x) != 0;
  double a = __builtin_fabs(x);
  if (x != x) {
    __builtin_memcpy(body, "nan", 3), len = 3, negative = false;
  } else if (a == __builtin_inf()) {
    __builtin_memcpy(body, "inf", 3), len = 3;
  } else if (code == 'f' || code == 'e') {
    const char* printf_format = f.alt ? (code == 'f' ? "%#.*f" : "%#.*e") : (code == 'f' ? "%.*f" : "%.*e");
    len = __builtin_snprintf(body, sizeof body, printf_format, precision, a);
  } else {
    FloatDigits g;
    if (code == 'r') ShortestDigits(a, g);
    else SignificantDigits(a, precision == 0 ? 1 : precision, g);
    len = LayoutShort(g, code, precision == 0 ? 1 : precision, add_dot_0, f.alt, body);
  }
  if (negative && f.no_neg_0 && x == x) {  // 'z': a value that rounded to zero loses its sign
    bool all_zero = true;
    for (int i = 0; i < len && body[i] != 'e'; ++i) all_zero = all_zero && (body[i] == '0' || body[i] == '.');
    negative = !all_zero;
  }
  if (upper) {
    for (int i = 0; i < len; ++i) {
      if (body[i] >= 'a' && body[i] <= 'z') body[i] = static_cast<char>(body[i] - 32);
    }
  }
  if (pct) body[len++] = '%';
  int digits = 0;
  while (digits < len && body[digits] >= '0' && body[digits] <= '9') ++digits;
  int group = f.grouping ? 3 : 0;
  return LayoutNumber(f, negative, "", 0, body, digits, body + digits, len - digits, group);
}

/** format(v, spec) of an int: bases, '#' prefixes, grouping, 'c'; float types format float(v). */
SPINE_CG_OUTLINE inline Str format_value(int64_t v, const Str& spec) {
  if (spec.bytes() == 0) return str_from_int(v);
  FormatSpec f = ParseFormatSpec(spec, '>');
  char t = f.type;
  if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
    return format_value(static_cast<double>(v), spec);
  }
  if (t == 'c') {
    if (v < 0 || v > 0x10FFFF) Raise(SPINE_FAULT_FALLBACK, "%c arg not in range(0x110000)");
    char ch[4];
    return LayoutNumber(f, false, "", 0, "", 0, ch, EncodeUtf8(v, ch), 0);
  }
  int base = t == 'b' ? 2 : t == 'o' ? 8 : (t == 'x' || t == 'X') ? 16 : 10;
  const char* alphabet = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char rev[64], digits[64];
  int n = 0;
  do {
    rev[n++] = alphabet[u % static_cast<uint64_t>(base)];
    u /= static_cast<uint64_t>(base);
  } while (u);
  for (int i = 0; i < n; ++i) digits[i] = rev[n - 1 - i];
  char prefix[2] = {'0', static_cast<char>(t == 'X' ? 'X' : t)};
  int group = f.grouping == 0 ? 0 : base == 10 ? 3 : 4;
  return LayoutNumber(f, v < 0, prefix, f.alt && base != 10 ? 2 : 0, digits, n, "", 0, group);
}

/** format(b, spec) of a bool: str(b) for an empty spec, else the int's format. */
inline Str format_value(bool b, const Str& spec) {
  return spec.bytes() == 0 ? str_from_bool(b) : format_value(static_cast<int64_t>(b), spec);
}

/** repr(s) of a str: ASCII natively (non-ASCII printability needs Unicode tables: CPython computes it). */
inline Str repr_value(const Str& s) {
  FormatOut out(4 * s.bytes() + 2);
  if (!ReprStr(out, s)) Raise(SPINE_FAULT_FALLBACK, "repr of non-ASCII text");
  return out.Take();
}
/** repr(v) of an int. */
inline Str repr_value(int64_t v) { return str_from_int(v); }
/** repr(b) of a bool. */
inline Str repr_value(bool b) { return str_from_bool(b); }
/** repr(x) of a float (also str(x)). */
inline Str repr_value(double x) { return format_value(x, Str()); }

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_FORMAT_H_
