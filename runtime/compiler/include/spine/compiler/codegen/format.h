/**
 * @file format.h
 * @brief format(x, spec) and repr(x) of int, bool, float and str. The
 * layout itself (CPython's format-spec rules, float digits) is the
 * runtime's (SpineRuntimeApi::format, value_format.h), compiled once:
 * inlined here, g++ -O3 spent 0.3-0.5 s of every module that formats on it.
 * What stays here are the shortcuts that need no layout (an empty spec of
 * an int, bool or str) and repr of a str.
 */
#ifndef SPINE_COMPILER_CODEGEN_FORMAT_H_
#define SPINE_COMPILER_CODEGEN_FORMAT_H_

#include "spine/compiler/codegen/boundary.h"
#include "spine/compiler/codegen/str.h"

namespace spine_cg {

/**
 * format(@p v, @p spec) by the runtime: the text in a stack buffer when it
 * fits (almost always), else asked again into a string of its size. What
 * cannot be laid out natively (a '%c' beyond U+10FFFF, a text beyond the
 * native size limit) goes back to CPython.
 */
SPINE_CG_OUTLINE inline Str FormatByRuntime(const SpineValue& v, const Str& spec) {
  char buf[256];
  const char* error = nullptr;
  int64_t n = Api().format(&v, spec.data(), spec.bytes(), buf, sizeof buf, &error);
  if (n < 0) Raise(SPINE_FAULT_FALLBACK, error);
  if (n <= static_cast<int64_t>(sizeof buf)) return Str::Copy(buf, n);
  char* data;
  Str s = Str::Make(n, &data);
  Api().format(&v, spec.data(), spec.bytes(), data, n, &error);
  return s;
}

/** format(s, spec) of a str. */
inline Str format_value(const Str& s, const Str& spec) {
  if (spec.bytes() == 0) return s;
  SpineValue v{};
  v.t = SPINE_TYPE_STR, v.p = static_cast<int32_t>(s.bytes()), v.u.v_str = const_cast<char*>(s.data());
  return FormatByRuntime(v, spec);
}

/** format(x, spec) of a float. */
inline Str format_value(double x, const Str& spec) {
  SpineValue v{};
  v.t = SPINE_TYPE_FLOAT, v.u.v_float = x;
  return FormatByRuntime(v, spec);
}

/** format(v, spec) of an int. */
inline Str format_value(int64_t i, const Str& spec) {
  if (spec.bytes() == 0) return str_from_int(i);
  SpineValue v{};
  v.t = SPINE_TYPE_INT, v.u.v_int = i;
  return FormatByRuntime(v, spec);
}

/** format(b, spec) of a bool: str(b) for an empty spec, else the int's format. */
inline Str format_value(bool b, const Str& spec) {
  return spec.bytes() == 0 ? str_from_bool(b) : format_value(static_cast<int64_t>(b), spec);
}

/** @brief repr's output bytes, sized once (a str's repr is at most four bytes per byte and the quotes). */
class ReprOut {
 public:
  explicit ReprOut(int64_t capacity) : p_(static_cast<char*>(Alloc(static_cast<size_t>(capacity) + 1))) {}
  ReprOut(const ReprOut&) = delete;             /**< Not copyable. */
  ReprOut& operator=(const ReprOut&) = delete;  /**< Not assignable. */
  ~ReprOut() { __builtin_free(p_); }
  /** Append @p k bytes. */
  void Add(const char* s, int64_t k) {
    if (k > 0) __builtin_memcpy(p_ + n_, s, static_cast<size_t>(k));
    n_ += k > 0 ? k : 0;
  }
  /** The text as a Str. */
  Str Take() const { return Str::Copy(p_, n_); }

 private:
  char* p_;
  int64_t n_ = 0;
};

/** repr(s) of a str: ASCII natively (non-ASCII printability needs Unicode tables: CPython computes it). */
inline Str repr_value(const Str& s) {
  if (4 * s.bytes() + 2 > 0x3fffffff) Raise(SPINE_FAULT_FALLBACK, "formatted text too long for native code");
  ReprOut out(4 * s.bytes() + 2);
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
