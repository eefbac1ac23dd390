/**
 * @file str.h
 * @brief Native str: immutable UTF-8 with Python's code-point semantics.
 *
 * A Str is a view (data, byte length) plus an optional shared buffer:
 * strings built natively own a reference-counted buffer, slices and
 * split() parts share their source's buffer, and argument strings view the
 * caller's bytes (which outlive the call; nothing native does). Whether a
 * string is pure ASCII, and its hash, are computed once per variable and
 * cached (copies carry them), so indexing, len() and slicing are O(1) for
 * ASCII and a scan otherwise, and `d[w] = d.get(w, 0) + 1` hashes w once.
 * Ordering is byte order, which for UTF-8 is code-point order, as Python's.
 */
#ifndef SPINE_COMPILER_CODEGEN_STR_H_
#define SPINE_COMPILER_CODEGEN_STR_H_

#include "spine/compiler/codegen/traits.h"

namespace spine_cg {

/** The 128 ASCII characters, so s[i] of an ASCII string allocates nothing. */
inline const char* AsciiTable() {
  static const char table[128] = {
      0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12,  13,  14,  15,  16,  17,  18,
      19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,
      38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,
      57,  58,  59,  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,
      76,  77,  78,  79,  80,  81,  82,  83,  84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,
      95,  96,  97,  98,  99,  100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113,
      114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127};
  return table;
}

/**
 * Hash of @p n bytes at @p p (never 0). Out of line: inlined into every
 * lookup of a str key, its two loops were a large part of the compile time
 * of a module that uses a dict keyed by str, and it runs once per string
 * value (the hash is cached), so the call costs nothing measurable.
 */
SPINE_CG_OUTLINE __attribute__((pure)) inline uint64_t HashBytes(const char* p, int32_t n) noexcept {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(n);
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    __builtin_memcpy(&w, p + i, 8);
    h = Mix(h ^ w);
  }
  uint64_t tail = 0;
  for (int32_t k = 0; i + k < n; ++k) tail |= static_cast<uint64_t>(static_cast<unsigned char>(p[i + k])) << (8 * k);
  h = Mix(h ^ tail);
  return h ? h : 1;
}

/** True for a UTF-8 continuation byte. */
inline bool IsCont(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/**
 * Code points in the first @p n bytes at @p p. This scan and CodePointOffset are what len(),
 * s[i], slicing and find() do for non-ASCII text, one copy per module: inlined, g++ -O3
 * vectorised the scan at every len(), s[i] and slice, most of the compile time of a function
 * that indexes strings in a loop. The check of the cached ASCII flag (and the scan that sets
 * it, which the loops around it are specialised on) stays inline: an ASCII string's len()
 * and s[i] cost no call.
 */
SPINE_CG_OUTLINE __attribute__((pure)) inline int64_t CountCodePoints(const char* p, int64_t n) noexcept {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += !IsCont(p[i]);
  return count;
}
/** Byte offset of code point @p cp in the @p n bytes at @p p, or @p n. */
SPINE_CG_OUTLINE __attribute__((pure)) inline int64_t CodePointOffset(const char* p, int64_t n, int64_t cp) noexcept {
  int64_t i = 0;
  for (; i < n; ++i) {
    if (!IsCont(p[i]) && cp-- == 0) return i;
  }
  return i;
}

/** @brief A native Python str (see file comment). */
class Str {
 public:
  /** "". */
  Str() noexcept : p_(""), buf_(nullptr), hash_(0), n_(0), ascii_(1) {}
  Str(const Str& o) noexcept : p_(o.p_), buf_(o.buf_), hash_(o.hash_), n_(o.n_), ascii_(o.ascii_) {  // NOLINT
    if (buf_) ++*buf_;
  }
  Str(Str&& o) noexcept : p_(o.p_), buf_(o.buf_), hash_(o.hash_), n_(o.n_), ascii_(o.ascii_) { o.buf_ = nullptr; }
  Str& operator=(const Str& o) noexcept {
    if (o.buf_) ++*o.buf_;
    Drop();
    p_ = o.p_, buf_ = o.buf_, hash_ = o.hash_, n_ = o.n_, ascii_ = o.ascii_;
    return *this;
  }
  Str& operator=(Str&& o) noexcept {
    if (this != &o) {
      Drop();
      p_ = o.p_, buf_ = o.buf_, hash_ = o.hash_, n_ = o.n_, ascii_ = o.ascii_;
      o.buf_ = nullptr;
    }
    return *this;
  }
  ~Str() { Drop(); }

  /** View bytes that outlive every native value (arguments, literals). */
  static Str View(const char* p, int64_t n, int ascii = -1) noexcept {
    Str s;
    s.p_ = p, s.n_ = static_cast<int32_t>(n), s.ascii_ = ascii, s.hash_ = 0;
    return s;
  }
  /** The one-character string of ASCII code @p c. */
  static Str Char(unsigned char c) noexcept { return View(AsciiTable() + c, 1, 1); }
  /** A new string of @p n bytes; write them through @p out before any other use. */
  static Str Make(int64_t n, char** out) {
    if (n > 0x7fffffff) Raise(SPINE_FAULT_FALLBACK, "string too long for native code");
    auto* buf = static_cast<int64_t*>(Alloc(sizeof(int64_t) + static_cast<size_t>(n) + 1));
    *buf = 1;
    char* data = reinterpret_cast<char*>(buf + 1);
    data[n] = '\0';
    Str s;
    s.p_ = data, s.buf_ = buf, s.n_ = static_cast<int32_t>(n), s.ascii_ = -1, s.hash_ = 0;
    *out = data;
    return s;
  }
  /** A copy of @p n bytes at @p p. */
  static Str Copy(const char* p, int64_t n, int ascii = -1) {
    char* d;
    Str s = Make(n, &d);
    if (n) __builtin_memcpy(d, p, static_cast<size_t>(n));
    s.ascii_ = ascii;
    return s;
  }
  /** Bytes [@p off, @p off + @p n) of this string, sharing its buffer. */
  Str Sub(int64_t off, int64_t n, int ascii) const noexcept {
    Str s(*this);
    s.p_ = p_ + off, s.n_ = static_cast<int32_t>(n), s.ascii_ = ascii, s.hash_ = 0;
    return s;
  }

  /** UTF-8 bytes (not NUL-terminated in general). */
  const char* data() const noexcept { return p_; }
  /** Byte length. */
  int64_t bytes() const noexcept { return n_; }
  /** True if every byte is ASCII (computed on first use, then cached). */
  bool Ascii() const noexcept {
    if (ascii_ < 0) {
      int a = 1;
      for (int32_t i = 0; i < n_; ++i) {
        if (static_cast<unsigned char>(p_[i]) >= 0x80) {
          a = 0;
          break;
        }
      }
      ascii_ = a;
    }
    return ascii_ == 1;
  }
  /** Hash of the bytes (computed on first use, then cached; never 0). */
  uint64_t Hash() const noexcept {
    if (hash_ == 0) hash_ = HashBytes(p_, n_);
    return hash_;
  }

 private:
  void Drop() noexcept {
    if (buf_ && --*buf_ == 0) Free(buf_);
    buf_ = nullptr;
  }
  const char* p_;
  int64_t* buf_;           // count, followed by the bytes; null for views
  mutable uint64_t hash_;  // 0 until computed
  int32_t n_;
  mutable int32_t ascii_;  // -1 unknown, else 0/1
};

/** Decode the code point at byte @p i of @p p (valid UTF-8); sets *@p len to its byte length. */
inline uint32_t DecodeAt(const char* p, int64_t i, int* len) {
  unsigned char c = static_cast<unsigned char>(p[i]);
  if (c < 0x80) {
    *len = 1;
    return c;
  }
  if (c < 0xE0) {
    *len = 2;
    return ((c & 0x1Fu) << 6) | (p[i + 1] & 0x3Fu);
  }
  if (c < 0xF0) {
    *len = 3;
    return ((c & 0x0Fu) << 12) | ((p[i + 1] & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu);
  }
  *len = 4;
  return ((c & 0x07u) << 18) | ((p[i + 1] & 0x3Fu) << 12) | ((p[i + 2] & 0x3Fu) << 6) | (p[i + 3] & 0x3Fu);
}

/** Write code point @p c as UTF-8 into @p out; returns the byte count. */
inline int EncodeUtf8(uint32_t c, char* out) {
  if (c < 0x80) {
    out[0] = static_cast<char>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<char>(0xC0 | (c >> 6));
    out[1] = static_cast<char>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (c >> 12));
    out[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (c >> 18));
  out[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (c & 0x3F));
  return 4;
}

/** len(s): code points. */
inline int64_t str_len(const Str& s) {
  if (__builtin_expect(s.Ascii(), 1)) return s.bytes();
  return CountCodePoints(s.data(), s.bytes());
}

/** Byte offset of code point @p cp (0 <= cp <= len). */
inline int64_t CpOffset(const Str& s, int64_t cp) {
  if (__builtin_expect(s.Ascii(), 1)) return cp;
  return CodePointOffset(s.data(), s.bytes(), cp);
}

/** Code point index of byte offset @p off (a character boundary). */
inline int64_t CpIndex(const Str& s, int64_t off) {
  if (__builtin_expect(s.Ascii(), 1)) return off;
  return CountCodePoints(s.data(), off);
}

/** The character at code point @p cp (in range) as a string. */
inline Str CharAt(const Str& s, int64_t cp) {
  if (s.Ascii()) return Str::Char(static_cast<unsigned char>(s.data()[cp]));
  int64_t off = CpOffset(s, cp);
  int len;
  DecodeAt(s.data(), off, &len);
  if (len == 1) return Str::Char(static_cast<unsigned char>(s.data()[off]));
  return s.Sub(off, len, 0);
}

/** s[i] with Python's negative indices; IndexError("string index out of range"). */
inline Str str_getitem(const Str& s, int64_t i) {
  int64_t n = str_len(s);
  if (i < 0) i += n;
  if (i < 0 || i >= n) Raise(SPINE_FAULT_INDEX, "string index out of range");
  return CharAt(s, i);
}

/** @brief A slice adjusted to a length (CPython's PySlice_Unpack + PySlice_AdjustIndices). */
struct SliceRange {
  int64_t start;  /**< First index. */
  int64_t step;   /**< Step (non-zero). */
  int64_t count;  /**< Number of elements. */
};

/** Adjust [start:stop:step] (absent parts flagged false) to a sequence of @p len elements. */
inline SliceRange AdjustSlice(int64_t len, bool has_start, int64_t start, bool has_stop, int64_t stop,
                              bool has_step, int64_t step) {
  if (!has_step) step = 1;
  if (step == 0) Raise(SPINE_FAULT_VALUE, "slice step cannot be zero");
  if (step < -0x7fffffffffffffffLL) step = -0x7fffffffffffffffLL;
  if (!has_start) start = step < 0 ? 0x7fffffffffffffffLL : 0;
  if (!has_stop) stop = step < 0 ? (-0x7fffffffffffffffLL - 1) : 0x7fffffffffffffffLL;
  auto adjust = [&](int64_t v) {
    if (v < 0) {
      v = v < -len ? (step < 0 ? -1 : 0) : v + len;
    } else if (v >= len) {
      v = step < 0 ? len - 1 : len;
    }
    return v;
  };
  start = adjust(start);
  stop = adjust(stop);
  int64_t count = 0;
  if (step < 0) {
    if (stop < start) count = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    count = (stop - start - 1) / step + 1;
  }
  return SliceRange{start, step, count};
}

/** s[start:stop:step] by code points; contiguous slices share the buffer. */
SPINE_CG_OUTLINE inline Str str_slice(const Str& s, const SliceRange& r) {
  if (r.count == 0) return Str();
  bool ascii = s.Ascii();
  if (r.step == 1) {
    int64_t b = CpOffset(s, r.start), e = CpOffset(s, r.start + r.count);
    return s.Sub(b, e - b, ascii ? 1 : -1);
  }
  if (ascii) {
    char* d;
    Str out = Str::Make(r.count, &d);
    for (int64_t k = 0; k < r.count; ++k) d[k] = s.data()[r.start + k * r.step];
    return out;
  }
  // Non-ASCII with a step: collect character offsets once, then copy.
  int64_t n = str_len(s);
  auto* offs = static_cast<int64_t*>(Alloc(sizeof(int64_t) * static_cast<size_t>(n + 1)));
  int64_t k = 0;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    if (!IsCont(s.data()[i])) offs[k++] = i;
  }
  offs[n] = s.bytes();
  int64_t total = 0;
  for (int64_t j = 0; j < r.count; ++j) {
    int64_t c = r.start + j * r.step;
    total += offs[c + 1] - offs[c];
  }
  char* d;
  Str out = Str::Make(total, &d);
  for (int64_t j = 0, w = 0; j < r.count; ++j) {
    int64_t c = r.start + j * r.step, len = offs[c + 1] - offs[c];
    __builtin_memcpy(d + w, s.data() + offs[c], static_cast<size_t>(len));
    w += len;
  }
  Free(offs);
  return out;
}

/** a + b. */
SPINE_CG_OUTLINE inline Str str_concat(const Str& a, const Str& b) {
  if (b.bytes() == 0) return a;
  if (a.bytes() == 0) return b;
  char* d;
  Str out = Str::Make(a.bytes() + b.bytes(), &d);
  __builtin_memcpy(d, a.data(), static_cast<size_t>(a.bytes()));
  __builtin_memcpy(d + a.bytes(), b.data(), static_cast<size_t>(b.bytes()));
  return out;
}

/** s * n (n <= 0 gives ""); refused before allocating when huge. */
SPINE_CG_OUTLINE inline Str str_repeat(const Str& s, int64_t n) {
  if (n <= 0 || s.bytes() == 0) return Str();
  int64_t total;
  if (__builtin_mul_overflow(s.bytes(), n, &total)) Raise(SPINE_FAULT_FALLBACK, "string too long for native code");
  CheckSize(total);
  char* d;
  Str out = Str::Make(total, &d);
  for (int64_t k = 0; k < n; ++k) __builtin_memcpy(d + k * s.bytes(), s.data(), static_cast<size_t>(s.bytes()));
  return out;
}

/** Byte offset of the first @p needle in @p hay at or after @p from, or -1. UTF-8 matches align to characters. */
SPINE_CG_OUTLINE __attribute__((pure)) inline int64_t FindBytes(const Str& hay, const Str& needle, int64_t from) {
  int64_t n = hay.bytes(), m = needle.bytes();
  if (m == 0) return from <= n ? from : -1;
  const char* h = hay.data();
  const char* q = needle.data();
  for (int64_t i = from; i + m <= n; ++i) {
    if (h[i] == q[0] && __builtin_memcmp(h + i, q, static_cast<size_t>(m)) == 0) return i;
  }
  return -1;
}

/** needle in hay. */
inline bool str_contains(const Str& hay, const Str& needle) { return FindBytes(hay, needle, 0) >= 0; }
/** s.find(sub): code point index or -1. */
inline int64_t str_find(const Str& s, const Str& sub) {
  int64_t b = FindBytes(s, sub, 0);
  return b < 0 ? -1 : CpIndex(s, b);
}
/** s.index(sub): ValueError("substring not found"). */
inline int64_t str_index(const Str& s, const Str& sub) {
  int64_t i = str_find(s, sub);
  if (i < 0) Raise(SPINE_FAULT_VALUE, "substring not found");
  return i;
}
/** s.count(sub): non-overlapping occurrences; "" occurs len(s) + 1 times. */
SPINE_CG_OUTLINE inline int64_t str_count(const Str& s, const Str& sub) {
  if (sub.bytes() == 0) return str_len(s) + 1;
  int64_t n = 0;
  for (int64_t i = FindBytes(s, sub, 0); i >= 0; i = FindBytes(s, sub, i + sub.bytes())) ++n;
  return n;
}
/** s.startswith(p). */
inline bool str_startswith(const Str& s, const Str& p) {
  return p.bytes() <= s.bytes() && __builtin_memcmp(s.data(), p.data(), static_cast<size_t>(p.bytes())) == 0;
}
/** s.endswith(p). */
inline bool str_endswith(const Str& s, const Str& p) {
  return p.bytes() <= s.bytes() &&
         __builtin_memcmp(s.data() + s.bytes() - p.bytes(), p.data(), static_cast<size_t>(p.bytes())) == 0;
}

/** @brief Appends bytes into a growing buffer, then becomes a Str. */
class StrBuilder {
 public:
  StrBuilder() = default;
  StrBuilder(const StrBuilder&) = delete;             /**< Not copyable. */
  StrBuilder& operator=(const StrBuilder&) = delete;  /**< Not assignable. */
  ~StrBuilder() { Free(d_); }
  /** Append @p n bytes. */
  void Add(const char* p, int64_t n) {
    if (len_ + n > cap_) {
      int64_t cap = cap_ * 2 > len_ + n ? cap_ * 2 : len_ + n + 16;
      if (cap > 0x7fffffff) Raise(SPINE_FAULT_FALLBACK, "string too long for native code");
      char* d = static_cast<char*>(Alloc(static_cast<size_t>(cap)));
      if (len_) __builtin_memcpy(d, d_, static_cast<size_t>(len_));
      Free(d_);
      d_ = d, cap_ = cap;
    }
    if (n) __builtin_memcpy(d_ + len_, p, static_cast<size_t>(n));
    len_ += n;
  }
  /** Append a string. */
  void Add(const Str& s) { Add(s.data(), s.bytes()); }
  /** The string built so far. */
  Str Finish() const { return Str::Copy(d_, len_); }

 private:
  char* d_ = nullptr;
  int64_t len_ = 0, cap_ = 0;
};

/**
 * s.replace(old, new[, count]): the first @p count occurrences (every one if negative); an empty
 * @p old goes before each of the first count characters (and at the end, if count is past them).
 */
SPINE_CG_OUTLINE inline Str str_replace(const Str& s, const Str& old, const Str& repl, int64_t count = -1) {
  if (count < 0) count = 0x7fffffffffffffffLL;
  StrBuilder b;
  int64_t prev = 0;
  if (old.bytes() == 0) {
    for (; count > 0; --count) {
      b.Add(repl);
      if (prev >= s.bytes()) break;
      int len;
      DecodeAt(s.data(), prev, &len);
      b.Add(s.data() + prev, len);
      prev += len;
    }
  } else {
    for (int64_t i; count > 0 && (i = FindBytes(s, old, prev)) >= 0; --count) {
      b.Add(s.data() + prev, i - prev);
      b.Add(repl);
      prev = i + old.bytes();
    }
    if (prev == 0) return s;
  }
  b.Add(s.data() + prev, s.bytes() - prev);
  return b.Finish();
}

/** ASCII case mapping; other characters need Unicode tables, so CPython maps them. */
SPINE_CG_OUTLINE inline Str CaseMap(const Str& s, bool upper) {
  if (!s.Ascii()) Raise(SPINE_FAULT_FALLBACK, "case mapping of non-ASCII text");
  char* d;
  Str out = Str::Make(s.bytes(), &d);
  for (int64_t i = 0; i < s.bytes(); ++i) {
    char c = s.data()[i];
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    d[i] = c;
  }
  return out;
}
/** s.upper(). */
inline Str str_upper(const Str& s) { return CaseMap(s, true); }
/** s.lower(). */
inline Str str_lower(const Str& s) { return CaseMap(s, false); }

/** Python's str.isspace() of one code point (the complete Unicode White_Space set CPython uses). */
inline bool IsSpaceCp(uint32_t c) {
  if (c < 0x80) return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

/** True if code point @p c occurs in @p chars. */
inline bool InChars(uint32_t c, const Str& chars) {
  for (int64_t i = 0; i < chars.bytes();) {
    int len;
    if (DecodeAt(chars.data(), i, &len) == c) return true;
    i += len;
  }
  return false;
}

/** strip/lstrip/rstrip: of whitespace (@p chars null) or of the characters in *@p chars. */
SPINE_CG_OUTLINE inline Str StripImpl(const Str& s, const Str* chars, bool left, bool right) {
  auto drop = [&](uint32_t c) { return chars ? InChars(c, *chars) : IsSpaceCp(c); };
  int64_t b = 0, e = s.bytes();
  while (left && b < e) {
    int len;
    if (!drop(DecodeAt(s.data(), b, &len))) break;
    b += len;
  }
  while (right && e > b) {
    int64_t k = e - 1;
    while (IsCont(s.data()[k])) --k;
    int len;
    if (!drop(DecodeAt(s.data(), k, &len))) break;
    e = k;
  }
  return s.Sub(b, e - b, s.Ascii() ? 1 : -1);
}
/** s.strip(). */
inline Str str_strip(const Str& s) { return StripImpl(s, nullptr, true, true); }
/** s.lstrip(). */
inline Str str_lstrip(const Str& s) { return StripImpl(s, nullptr, true, false); }
/** s.rstrip(). */
inline Str str_rstrip(const Str& s) { return StripImpl(s, nullptr, false, true); }
/** s.strip(chars). */
inline Str str_strip_chars(const Str& s, const Str& c) { return StripImpl(s, &c, true, true); }
/** s.lstrip(chars). */
inline Str str_lstrip_chars(const Str& s, const Str& c) { return StripImpl(s, &c, true, false); }
/** s.rstrip(chars). */
inline Str str_rstrip_chars(const Str& s, const Str& c) { return StripImpl(s, &c, false, true); }

/** Character class tests: exact for ASCII, CPython's tables decide otherwise. */
template <typename P>
inline bool AllAscii(const Str& s, P pred) {
  if (!s.Ascii()) Raise(SPINE_FAULT_FALLBACK, "character class of non-ASCII text");
  if (s.bytes() == 0) return false;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    if (!pred(s.data()[i])) return false;
  }
  return true;
}
/** s.isdigit(). */
inline bool str_isdigit(const Str& s) { return AllAscii(s, [](char c) { return c >= '0' && c <= '9'; }); }
/** s.isalpha(). */
inline bool str_isalpha(const Str& s) {
  return AllAscii(s, [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}
/** s.isalnum(). */
inline bool str_isalnum(const Str& s) {
  return AllAscii(s, [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); });
}
/** s.isspace() (exact for all of Unicode). */
SPINE_CG_OUTLINE inline bool str_isspace(const Str& s) {
  if (s.bytes() == 0) return false;
  for (int64_t i = 0; i < s.bytes();) {
    int len;
    if (!IsSpaceCp(DecodeAt(s.data(), i, &len))) return false;
    i += len;
  }
  return true;
}
/** s.isupper() / s.islower(): some cased character, none of the other case. */
SPINE_CG_OUTLINE inline bool CaseTest(const Str& s, bool upper) {
  if (!s.Ascii()) Raise(SPINE_FAULT_FALLBACK, "character class of non-ASCII text");
  bool cased = false;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    char c = s.data()[i];
    bool up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z';
    if ((upper && low) || (!upper && up)) return false;
    cased = cased || up || low;
  }
  return cased;
}
/** s.isupper(). */
inline bool str_isupper(const Str& s) { return CaseTest(s, true); }
/** s.islower(). */
inline bool str_islower(const Str& s) { return CaseTest(s, false); }

/** str(int). */
SPINE_CG_OUTLINE inline Str str_from_int(int64_t v) {
  char digits[24];
  return Str::Copy(digits, FormatDecimal(v, digits), 1);
}
/** str(bool). */
inline Str str_from_bool(bool v) { return v ? Str::View("True", 4, 1) : Str::View("False", 5, 1); }

/**
 * CPython's repr of @p s into @p out (at most @p limit characters, as
 * "%.200R" cuts); false for non-ASCII text, whose repr depends on Unicode
 * printability tables (the caller then lets CPython raise). @p out is a
 * FaultText or any writer with Add(bytes, count).
 */
template <typename Out>
SPINE_CG_OUTLINE inline bool ReprStr(Out& out, const Str& s, int64_t limit = -1) {
  if (!s.Ascii()) return false;
  bool sq = false, dq = false;
  for (int64_t i = 0; i < s.bytes(); ++i) {
    sq = sq || s.data()[i] == '\'';
    dq = dq || s.data()[i] == '"';
  }
  char quote = sq && !dq ? '"' : '\'';
  int64_t written = 0;
  auto put = [&](const char* p, int64_t n) {
    if (limit >= 0 && written + n > limit) n = limit - written;
    if (n > 0) out.Add(p, n);
    written += n;
  };
  put(&quote, 1);
  for (int64_t i = 0; i < s.bytes(); ++i) {
    char c = s.data()[i];
    char esc[4] = {'\\', c, 0, 0};
    if (c == quote || c == '\\') {
      put(esc, 2);
    } else if (c == '\t' || c == '\n' || c == '\r') {
      esc[1] = c == '\t' ? 't' : (c == '\n' ? 'n' : 'r');
      put(esc, 2);
    } else if (c < ' ' || c == 0x7f) {
      const char* hex = "0123456789abcdef";
      char x[4] = {'\\', 'x', hex[(c >> 4) & 0xF], hex[c & 0xF]};
      put(x, 4);
    } else {
      put(&c, 1);
    }
  }
  put(&quote, 1);
  return true;
}

/** ord(c); a string of another length is CPython's TypeError. */
inline int64_t str_ord(const Str& s) {
  if (s.bytes() == 0 || str_len(s) != 1) Raise(SPINE_FAULT_FALLBACK, "ord() of a string that is not one character");
  int len;
  return DecodeAt(s.data(), 0, &len);
}

/** chr(i); lone surrogates cannot be UTF-8, so CPython builds those. */
SPINE_CG_OUTLINE inline Str str_chr(int64_t c) {
  if (c < 0 || c >= 0x110000) Raise(SPINE_FAULT_VALUE, "chr() arg not in range(0x110000)");
  if (c >= 0xD800 && c <= 0xDFFF) Raise(SPINE_FAULT_FALLBACK, "chr() of a surrogate");
  if (c < 0x80) return Str::Char(static_cast<unsigned char>(c));
  char buf[4];
  int n = EncodeUtf8(static_cast<uint32_t>(c), buf);
  return Str::Copy(buf, n, 0);
}

/** str. */
template <>
struct Traits<Str> {
  /**
   * Content equality: the same bytes (two views of one argument string)
   * compare at once, short keys compare inline instead of calling memcmp.
   */
  static bool Eq(const Str& a, const Str& b) {
    int64_t n = a.bytes();
    if (n != b.bytes()) return false;
    if (a.data() == b.data()) return true;
    if (n > 16) return __builtin_memcmp(a.data(), b.data(), static_cast<size_t>(n)) == 0;
    for (int64_t i = 0; i < n; ++i) {
      if (a.data()[i] != b.data()[i]) return false;
    }
    return true;
  }
  /** Code point order (= UTF-8 byte order). */
  static int Cmp(const Str& a, const Str& b) {
    int64_t n = a.bytes() < b.bytes() ? a.bytes() : b.bytes();
    int c = __builtin_memcmp(a.data(), b.data(), static_cast<size_t>(n));
    if (c) return c < 0 ? -1 : 1;
    return a.bytes() < b.bytes() ? -1 : a.bytes() > b.bytes();
  }
  /** Hash (cached in the string). */
  static uint64_t Hash(const Str& s) { return s.Hash(); }
  /** repr (ASCII only). */
  static bool Repr(FaultText& out, const Str& s) { return ReprStr(out, s); }
};

/** str: Cmp is 0 exactly for the same bytes (traits.h). */
template <>
struct CmpDecidesEq<Str> {
  static constexpr bool value = true;  /**< Byte equality, byte order. */
};

/**
 * `raise ValueError(message)` (IndexError, RuntimeError, ZeroDivisionError):
 * the message as the exception's one argument. One the fault buffer would
 * cut, or holding a NUL, is raised by CPython instead.
 */
[[noreturn]] inline void raise_text(int kind, const Str& message) {
  if (message.bytes() >= kFaultTextSize - 1 || __builtin_memchr(message.data(), 0, message.bytes()) != nullptr) {
    Raise(SPINE_FAULT_FALLBACK, "message raised in Python");
  }
  FaultText().Add(message.data(), message.bytes()).Raise(kind);
}

/**
 * `raise ValidationError(message)` of a class the program defines (fault kind
 * @p kind from kFirstClassFault), @p cls a view of its name's literal.
 */
[[noreturn]] inline void raise_text(int kind, const Str& cls, const Str& message) {
  if (message.bytes() >= kFaultTextSize - 1 || __builtin_memchr(message.data(), 0, message.bytes()) != nullptr) {
    Raise(SPINE_FAULT_FALLBACK, "message raised in Python");
  }
  Fault f;
  f.kind = kind;
  f.cls = cls.data();
  f.message = nullptr;
  f.called = false;
  __builtin_memcpy(f.text, message.data(), static_cast<size_t>(message.bytes()));
  f.text[message.bytes()] = '\0';
  throw f;
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_STR_H_
