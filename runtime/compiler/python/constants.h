// Str constants keep their identity across calls, as in CPython: a function
// returning "done" returns the same object every time (the code object's
// constant; interned when it looks like an identifier, so it is also the
// caller's "done"). Native code builds its results anew, so without this
// `f() is f()` would be False natively and True in CPython.
//
// A str result whose bytes lie in the read-only image of the module being
// called is a literal of the module (or a slice of one, or a one-character
// ASCII string, which CPython caches too): it is turned into a Python str
// once and that object is returned from then on. Heap strings (built at run
// time) and argument views never lie there.
#ifndef SPINE_COMPILER_PYTHON_CONSTANTS_H_
#define SPINE_COMPILER_PYTHON_CONSTANTS_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>

namespace spine::compiler::py {

/** The read-only address ranges of one loaded module. */
struct ModuleImage {
  static constexpr int kMaxRanges = 4;
  uintptr_t lo[kMaxRanges] = {};
  uintptr_t hi[kMaxRanges] = {};
  int n = 0;

  /** The image of the module that holds @p code (empty if none is found). */
  static ModuleImage Of(const void* code);
  /** True if [@p p, @p p + @p size) lies in one of the ranges. */
  bool Holds(const char* p, int64_t size) const;
};

/** Makes @p image the module whose constants NewStr recognises, for one call on this thread. */
class ConstantScope {
 public:
  explicit ConstantScope(const ModuleImage* image);
  ~ConstantScope();
  ConstantScope(const ConstantScope&) = delete;
  ConstantScope& operator=(const ConstantScope&) = delete;

 private:
  const ModuleImage* saved_;
};

/**
 * The one Python str for the constant at [@p data, @p data + @p size) of the
 * module being called: a new reference; nullptr without an error if the
 * bytes are not a constant of it; nullptr with an error if building failed.
 */
PyObject* ConstantStr(const char* data, int64_t size);

}  // namespace spine::compiler::py

#endif  // SPINE_COMPILER_PYTHON_CONSTANTS_H_
