// format(x, spec) of int, bool, float and str, as CPython's
// Python/formatter_unicode.c and Python/pystrtod.c lay it out: the same parse
// of the spec, the same digits, the same sign, prefix, grouping and padding
// rules (zeros grouped into the padding, '^' leaning left, 'z'). Generated
// modules reach it through SpineRuntimeApi::format, so it is compiled once.
//
// The frontend compiles only specs CPython accepts for the value's type (it
// asks CPython when compiling), so parsing here never meets an invalid one.
// Nothing here throws: the text is written into the caller's buffer when it
// fits, and its size is returned either way.
#include "spine/compiler/value_format.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "float_digits.h"

namespace spine::compiler {
namespace {

// What native code may build: longer texts go back to CPython.
constexpr int64_t kMaxText = 0x3fffffff;

// A parsed format spec (CPython's InternalFormatSpec).
struct FormatSpec {
  const char* fill = " ";  // the fill character's UTF-8 bytes
  int fill_bytes = 1;      // their count
  bool fill_is_zero = false;
  char align = 0;          // '<', '>', '^', '='; 0 until defaulted
  char sign = 0;           // '+', '-', ' ' or 0
  bool no_neg_0 = false;   // 'z'
  bool alt = false;        // '#'
  int64_t width = -1;
  char grouping = 0;       // ',' or '_' or 0
  int64_t precision = -1;
  char type = 0;
};

// Bytes of the UTF-8 sequence that starts with @p lead.
int Utf8SeqLen(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }

bool IsAlign(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

// Parse @p p (valid for the value's type) with @p default_align for an unspecified alignment.
FormatSpec ParseFormatSpec(const char* p, int64_t n, char default_align) {
  FormatSpec f;
  int64_t pos = 0;
  bool fill_given = false, align_given = false;
  int first = n ? Utf8SeqLen(static_cast<unsigned char>(p[0])) : 0;
  if (n > first && IsAlign(p[first])) {
    f.fill = p, f.fill_bytes = first, f.align = p[first];
    f.fill_is_zero = first == 1 && p[0] == '0';
    fill_given = align_given = true;
    pos = first + 1;
  } else if (n > 0 && IsAlign(p[0])) {
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

// The caller's buffer: bytes are written while they fit, and counted regardless
// (past the first that does not fit, nothing more is written).
class Sink {
 public:
  Sink(char* out, int64_t cap) : out_(out), cap_(cap) {}
  // Room for @p k more bytes, or null (they are counted either way).
  char* Reserve(int64_t k) {
    char* at = n_ + k <= cap_ ? out_ + n_ : nullptr;
    n_ += k;
    return at;
  }
  void Add(const char* s, int64_t k) {
    if (k <= 0) return;
    if (char* at = Reserve(k)) std::memcpy(at, s, static_cast<size_t>(k));
  }
  void Fill(const FormatSpec& f, int64_t times) {
    for (int64_t i = 0; i < times; ++i) Add(f.fill, f.fill_bytes);
  }
  int64_t size() const { return n_; }

 private:
  char* out_;
  int64_t cap_;
  int64_t n_ = 0;
};

// CPython's _PyUnicode_InsertThousandsGrouping: @p n digits grouped by @p group
// (0: none) with @p sep, zero-extended to at least @p min_width characters. Writes
// right-aligned ending at @p end (if not null); returns the character count.
int64_t GroupDigits(const char* digits, int64_t n, int64_t min_width, int group, char sep, char* end) {
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

// Characters (code points) of @p s.
int64_t CodePoints(const char* s, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return c;
}

// CPython's calc_number_widths + fill_number: [lpad][sign][prefix][spad][grouped digits][rest][rpad],
// where @p rest is the decimal point and everything after the leading digits (or a '%c' character).
int64_t LayoutNumber(const FormatSpec& f, bool negative, const char* prefix, int64_t n_prefix, const char* digits,
                     int64_t n_digits, const char* rest, int64_t n_rest, int group, Sink& out) {
  char sign = negative ? '-' : (f.sign == '+' || f.sign == ' ') ? f.sign : 0;
  int64_t n_sign = sign ? 1 : 0;
  int64_t fixed = n_sign + n_prefix + CodePoints(rest, n_rest);
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
  if ((lpad + spad + rpad) * f.fill_bytes + fixed + n_rest + grouped > kMaxText) return -1;
  out.Fill(f, lpad);
  if (sign) out.Add(&sign, 1);
  out.Add(prefix, n_prefix);
  out.Fill(f, spad);
  if (grouped) {
    if (char* at = out.Reserve(grouped)) GroupDigits(digits, n_digits, min_width, group, f.grouping, at + grouped);
  }
  out.Add(rest, n_rest);
  out.Fill(f, rpad);
  return out.size();
}

// format(s, spec) of a str: at most precision characters, padded to the width.
int64_t FormatStr(const char* s, int64_t bytes, const FormatSpec& f, Sink& out) {
  int64_t len = CodePoints(s, bytes);
  if (f.precision >= 0 && len > f.precision) {
    int64_t i = 0, seen = 0;
    while (i < bytes && seen < f.precision) i += Utf8SeqLen(static_cast<unsigned char>(s[i])), ++seen;
    bytes = i, len = f.precision;
  }
  int64_t total = f.width > len ? f.width : len;
  int64_t left = f.align == '>' ? total - len : f.align == '^' ? (total - len) / 2 : 0;
  int64_t right = total - len - left;
  if ((left + right) * f.fill_bytes + bytes > kMaxText) return -1;
  out.Fill(f, left);
  out.Add(s, bytes);
  out.Fill(f, right);
  return out.size();
}

// The UTF-8 bytes of code point @p c (0 <= c <= 0x10FFFF) into @p out; returns their count.
int EncodeUtf8(int64_t c, char* out) {
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

// format(x, spec) of a float (CPython's format_float_internal over PyOS_double_to_string).
int64_t FormatFloat(double x, const FormatSpec& f, Sink& out) {
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
  bool negative = std::signbit(x);
  double a = std::fabs(x);
  if (std::isnan(x)) {
    std::memcpy(body, "nan", 3), len = 3, negative = false;
  } else if (std::isinf(a)) {
    std::memcpy(body, "inf", 3), len = 3;
  } else if (code == 'f' || code == 'e') {
    const char* printf_format = f.alt ? (code == 'f' ? "%#.*f" : "%#.*e") : (code == 'f' ? "%.*f" : "%.*e");
    len = std::snprintf(body, sizeof body, printf_format, precision, a);
  } else {
    FloatDigits g;
    if (code == 'r') ShortestDigits(a, g);
    else SignificantDigits(a, precision == 0 ? 1 : precision, g);
    len = LayoutShort(g, code, precision == 0 ? 1 : precision, add_dot_0, f.alt, body);
  }
  if (negative && f.no_neg_0 && !std::isnan(x)) {  // 'z': a value that rounded to zero loses its sign
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
  return LayoutNumber(f, negative, "", 0, body, digits, body + digits, len - digits, group, out);
}

// format(v, spec) of an int: bases, '#' prefixes, grouping, 'c'; float types format float(v).
int64_t FormatInt(int64_t v, const FormatSpec& f, Sink& out, const char** error) {
  char t = f.type;
  if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
    return FormatFloat(static_cast<double>(v), f, out);
  }
  if (t == 'c') {
    if (v < 0 || v > 0x10FFFF) {
      *error = "%c arg not in range(0x110000)";
      return -1;
    }
    char ch[4];
    return LayoutNumber(f, false, "", 0, "", 0, ch, EncodeUtf8(v, ch), 0, out);
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
  return LayoutNumber(f, v < 0, prefix, f.alt && base != 10 ? 2 : 0, digits, n, "", 0, group, out);
}

}  // namespace

int64_t FormatValue(const SpineValue* value, const char* spec, int64_t spec_size, char* out, int64_t cap,
                    const char** error) noexcept {
  Sink sink(out, cap);
  *error = "formatted text too long for native code";  // unless another reason is given
  int64_t n;
  switch (value->t) {
    case SPINE_TYPE_STR:
      n = FormatStr(value->u.v_str, value->p, ParseFormatSpec(spec, spec_size, '<'), sink);
      break;
    case SPINE_TYPE_FLOAT:
      n = FormatFloat(value->u.v_float, ParseFormatSpec(spec, spec_size, '>'), sink);
      break;
    case SPINE_TYPE_INT:
    case SPINE_TYPE_BOOL:
      n = FormatInt(value->u.v_int, ParseFormatSpec(spec, spec_size, '>'), sink, error);
      break;
    default:
      *error = "format of a value native code does not format";
      return -1;
  }
  return n;
}

}  // namespace spine::compiler
