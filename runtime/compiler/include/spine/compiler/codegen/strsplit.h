/**
 * @file strsplit.h
 * @brief split/rsplit with maxsplit, splitlines and partition/rpartition:
 * CPython's stringlib/split.h and partition.h loops, over UTF-8 (a separator matches
 * only at character boundaries, and whitespace is str.isspace()'s set, so
 * byte positions stand for code points). split(sep) and split() without
 * maxsplit are list.h's.
 */
#ifndef SPINE_COMPILER_CODEGEN_STRSPLIT_H_
#define SPINE_COMPILER_CODEGEN_STRSPLIT_H_

#include "spine/compiler/codegen/strsearch.h"
#include "spine/compiler/codegen/tuple.h"

namespace spine_cg {

/** maxsplit < 0 means no limit, as in CPython. */
inline int64_t SplitLimit(int64_t maxsplit) { return maxsplit < 0 ? kStrEnd : maxsplit; }

/** Byte offset of the character that ends at byte @p end (> 0). */
inline int64_t PrevChar(const Str& s, int64_t end) {
  int64_t k = end - 1;
  while (k > 0 && IsCont(s.data()[k])) --k;
  return k;
}

/** s.split(sep, maxsplit). */
SPINE_CG_OUTLINE inline List<Str> str_split_max(const Str& s, const Str& sep, int64_t maxsplit) {
  if (sep.bytes() == 0) Raise(SPINE_FAULT_VALUE, "empty separator");
  int64_t left = SplitLimit(maxsplit);
  List<Str> out = List<Str>::New();
  int ascii = s.Ascii() ? 1 : -1;
  int64_t prev = 0;
  for (int64_t i; left > 0 && (i = FindBytes(s, sep, prev)) >= 0; --left) {
    out.Append(s.Sub(prev, i - prev, ascii));
    prev = i + sep.bytes();
  }
  out.Append(s.Sub(prev, s.bytes() - prev, ascii));
  return out;
}

/** s.split(None, maxsplit): runs of whitespace; after maxsplit parts the rest, leading whitespace dropped. */
SPINE_CG_OUTLINE inline List<Str> str_split_ws_max(const Str& s, int64_t maxsplit) {
  int64_t left = SplitLimit(maxsplit), i = 0, n = s.bytes();
  List<Str> out = List<Str>::New();
  int ascii = s.Ascii() ? 1 : -1, len;
  auto space = [&](int64_t at) { return IsSpaceCp(DecodeAt(s.data(), at, &len)); };
  for (; left > 0; --left) {
    while (i < n && space(i)) i += len;
    if (i >= n) break;
    int64_t b = i;
    while (i < n && !space(i)) i += len;
    out.Append(s.Sub(b, i - b, ascii));
  }
  while (i < n && space(i)) i += len;
  if (i < n) out.Append(s.Sub(i, n - i, ascii));
  return out;
}

/** The parts collected from the right, in order. */
inline List<Str> Reversed(const List<Str>& parts) {
  List<Str> out = List<Str>::New(parts.size());
  for (int64_t k = parts.size() - 1; k >= 0; --k) out.Append(parts.at(k));
  return out;
}

/** s.rsplit(sep[, maxsplit]). */
SPINE_CG_OUTLINE inline List<Str> str_rsplit(const Str& s, const Str& sep, int64_t maxsplit = -1) {
  if (sep.bytes() == 0) Raise(SPINE_FAULT_VALUE, "empty separator");
  int64_t left = SplitLimit(maxsplit), end = s.bytes();
  List<Str> parts = List<Str>::New();
  int ascii = s.Ascii() ? 1 : -1;
  for (; left > 0; --left) {
    int64_t at = RFindBytes(s.Sub(0, end, ascii), sep);
    if (at < 0) break;
    parts.Append(s.Sub(at + sep.bytes(), end - at - sep.bytes(), ascii));
    end = at;
  }
  parts.Append(s.Sub(0, end, ascii));
  return Reversed(parts);
}

/** s.rsplit([None[, maxsplit]]): split() from the right; the rest keeps its leading whitespace. */
SPINE_CG_OUTLINE inline List<Str> str_rsplit_ws(const Str& s, int64_t maxsplit = -1) {
  int64_t left = SplitLimit(maxsplit), e = s.bytes();
  List<Str> parts = List<Str>::New();
  int ascii = s.Ascii() ? 1 : -1, len;
  auto space_before = [&](int64_t end) { return IsSpaceCp(DecodeAt(s.data(), PrevChar(s, end), &len)); };
  for (; left > 0; --left) {
    while (e > 0 && space_before(e)) e = PrevChar(s, e);
    if (e == 0) break;
    int64_t stop = e;
    while (e > 0 && !space_before(e)) e = PrevChar(s, e);
    parts.Append(s.Sub(e, stop - e, ascii));
  }
  while (e > 0 && space_before(e)) e = PrevChar(s, e);
  if (e > 0) parts.Append(s.Sub(0, e, ascii));
  return Reversed(parts);
}

/** A line boundary of str.splitlines() (CPython's _PyUnicode_IsLinebreak). */
inline bool IsLineBreakCp(uint32_t c) {
  return (c >= 0x0A && c <= 0x0D) || (c >= 0x1C && c <= 0x1E) || c == 0x85 || c == 0x2028 || c == 0x2029;
}

/** s.splitlines([keepends]): "\r\n" is one boundary; no empty part after a final one. */
SPINE_CG_OUTLINE inline List<Str> str_splitlines(const Str& s, bool keepends = false) {
  List<Str> out = List<Str>::New();
  int ascii = s.Ascii() ? 1 : -1, len = 1;
  int64_t i = 0, n = s.bytes();
  while (i < n) {
    int64_t line = i;
    while (i < n && !IsLineBreakCp(DecodeAt(s.data(), i, &len))) i += len;
    int64_t eol = i;
    if (i < n) {
      i += s.data()[i] == '\r' && i + 1 < n && s.data()[i + 1] == '\n' ? 2 : len;
      if (keepends) eol = i;
    }
    out.Append(s.Sub(line, eol - line, ascii));
  }
  return out;
}

/** s.partition(sep) (@p last false) or s.rpartition(sep). */
SPINE_CG_OUTLINE inline Tuple<Str, Str, Str> Partition(const Str& s, const Str& sep, bool last) {
  if (sep.bytes() == 0) Raise(SPINE_FAULT_VALUE, "empty separator");
  int ascii = s.Ascii() ? 1 : -1;
  int64_t at = last ? RFindBytes(s, sep) : FindBytes(s, sep, 0);
  if (at < 0 && last) return Tuple<Str, Str, Str>{Str(), {Str(), {s, {}}}};
  if (at < 0) return Tuple<Str, Str, Str>{s, {Str(), {Str(), {}}}};
  int64_t after = at + sep.bytes();
  return Tuple<Str, Str, Str>{s.Sub(0, at, ascii), {sep, {s.Sub(after, s.bytes() - after, ascii), {}}}};
}
/** s.partition(sep). */
inline Tuple<Str, Str, Str> str_partition(const Str& s, const Str& sep) { return Partition(s, sep, false); }
/** s.rpartition(sep). */
inline Tuple<Str, Str, Str> str_rpartition(const Str& s, const Str& sep) { return Partition(s, sep, true); }

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_STRSPLIT_H_
