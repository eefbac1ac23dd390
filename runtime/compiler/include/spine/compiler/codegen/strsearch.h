/**
 * @file strsearch.h
 * @brief str methods that search a range of code points: count/find/rfind/
 * index/rindex/startswith/endswith with start and end, startswith/endswith
 * of a tuple of strings, removeprefix/removesuffix.
 *
 * start and end are clamped as CPython's ADJUST_INDICES does (like a slice,
 * except that a start past the end is kept, which is what makes
 * "abc".count("", 5) 0 and "abc".startswith("", 4) False). Each function is
 * out of line: the code-point scans of non-ASCII text would otherwise be
 * inlined into every call (compile time, see str.h).
 */
#ifndef SPINE_COMPILER_CODEGEN_STRSEARCH_H_
#define SPINE_COMPILER_CODEGEN_STRSEARCH_H_

#include "spine/compiler/codegen/list.h"

namespace spine_cg {

/** "No end given": every end is clamped to the length. */
inline constexpr int64_t kStrEnd = 0x7fffffffffffffffLL;

/** CPython's ADJUST_INDICES: negative indices count from the end, then clamp at 0; end clamps at @p len. */
inline void AdjustIndices(int64_t len, int64_t* start, int64_t* end) {
  if (*end > len) {
    *end = len;
  } else if (*end < 0) {
    *end += len;
    if (*end < 0) *end = 0;
  }
  if (*start < 0) {
    *start += len;
    if (*start < 0) *start = 0;
  }
}

/** The code points [@p start, @p end) of @p s (0 <= start <= end <= len), sharing its buffer. */
inline Str CpRange(const Str& s, int64_t start, int64_t end) {
  int64_t b = CpOffset(s, start), e = CpOffset(s, end);
  return s.Sub(b, e - b, s.Ascii() ? 1 : -1);
}

/** s.count(sub, start[, end]). */
SPINE_CG_OUTLINE inline int64_t str_count_range(const Str& s, const Str& sub, int64_t start, int64_t end = kStrEnd) {
  int64_t sublen = str_len(sub);
  AdjustIndices(str_len(s), &start, &end);
  if (end - start < sublen) return 0;
  if (sublen == 0) return end - start + 1;
  return str_count(CpRange(s, start, end), sub);
}

/** Byte offset of the last @p needle in @p hay, or -1. */
SPINE_CG_OUTLINE __attribute__((pure)) inline int64_t RFindBytes(const Str& hay, const Str& needle) {
  int64_t n = hay.bytes(), m = needle.bytes();
  for (int64_t i = n - m; i >= 0; --i) {
    if (__builtin_memcmp(hay.data() + i, needle.data(), static_cast<size_t>(m)) == 0) return i;
  }
  return -1;
}

/** find (@p last false) or rfind in [start, end): a code point index or -1. */
SPINE_CG_OUTLINE inline int64_t FindInRange(const Str& s, const Str& sub, int64_t start, int64_t end, bool last) {
  int64_t sublen = str_len(sub);
  AdjustIndices(str_len(s), &start, &end);
  if (end - start < sublen) return -1;
  if (sublen == 0) return last ? end : start;
  Str part = CpRange(s, start, end);
  int64_t b = last ? RFindBytes(part, sub) : FindBytes(part, sub, 0);
  return b < 0 ? -1 : start + CpIndex(part, b);
}
/** s.find(sub, start[, end]). */
inline int64_t str_find_range(const Str& s, const Str& sub, int64_t start, int64_t end = kStrEnd) {
  return FindInRange(s, sub, start, end, false);
}
/** s.rfind(sub[, start[, end]]). */
inline int64_t str_rfind(const Str& s, const Str& sub, int64_t start = 0, int64_t end = kStrEnd) {
  return FindInRange(s, sub, start, end, true);
}
/** s.index(sub, start[, end]): ValueError("substring not found"). */
inline int64_t str_index_range(const Str& s, const Str& sub, int64_t start, int64_t end = kStrEnd) {
  int64_t i = FindInRange(s, sub, start, end, false);
  if (i < 0) Raise(SPINE_FAULT_VALUE, "substring not found");
  return i;
}
/** s.rindex(sub[, start[, end]]): ValueError("substring not found"), as CPython words it. */
inline int64_t str_rindex(const Str& s, const Str& sub, int64_t start = 0, int64_t end = kStrEnd) {
  int64_t i = FindInRange(s, sub, start, end, true);
  if (i < 0) Raise(SPINE_FAULT_VALUE, "substring not found");
  return i;
}

/** CPython's tailmatch: @p p at the start (or, @p suffix, the end) of s[start:end]. */
SPINE_CG_OUTLINE inline bool TailMatch(const Str& s, const Str& p, int64_t start, int64_t end, bool suffix) {
  int64_t plen = str_len(p);
  AdjustIndices(str_len(s), &start, &end);
  end -= plen;
  if (end < start) return false;
  if (plen == 0) return true;
  // Whole UTF-8 characters match only at a character boundary, so equal bytes are equal code points.
  int64_t at = CpOffset(s, suffix ? end : start);
  return at + p.bytes() <= s.bytes() && __builtin_memcmp(s.data() + at, p.data(), static_cast<size_t>(p.bytes())) == 0;
}
/** s.startswith(p, start[, end]). */
inline bool str_startswith_range(const Str& s, const Str& p, int64_t start, int64_t end = kStrEnd) {
  return TailMatch(s, p, start, end, false);
}
/** s.endswith(p, start[, end]). */
inline bool str_endswith_range(const Str& s, const Str& p, int64_t start, int64_t end = kStrEnd) {
  return TailMatch(s, p, start, end, true);
}
/** startswith/endswith of a tuple of strings: any of them. */
SPINE_CG_OUTLINE inline bool TailMatchAny(const Str& s, const List<Str>& ps, int64_t start, int64_t end, bool suffix) {
  for (int64_t i = 0; i < ps.size(); ++i) {
    if (TailMatch(s, ps.at(i), start, end, suffix)) return true;
  }
  return false;
}
/** s.startswith((p, q, ...)[, start[, end]]). */
inline bool str_startswith_any(const Str& s, const List<Str>& ps, int64_t start = 0, int64_t end = kStrEnd) {
  return TailMatchAny(s, ps, start, end, false);
}
/** s.endswith((p, q, ...)[, start[, end]]). */
inline bool str_endswith_any(const Str& s, const List<Str>& ps, int64_t start = 0, int64_t end = kStrEnd) {
  return TailMatchAny(s, ps, start, end, true);
}

/** s.removeprefix(p). */
inline Str str_removeprefix(const Str& s, const Str& p) {
  if (p.bytes() == 0 || !str_startswith(s, p)) return s;
  return s.Sub(p.bytes(), s.bytes() - p.bytes(), s.Ascii() ? 1 : -1);
}
/** s.removesuffix(p). */
inline Str str_removesuffix(const Str& s, const Str& p) {
  if (p.bytes() == 0 || !str_endswith(s, p)) return s;
  return s.Sub(0, s.bytes() - p.bytes(), s.Ascii() ? 1 : -1);
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_STRSEARCH_H_
