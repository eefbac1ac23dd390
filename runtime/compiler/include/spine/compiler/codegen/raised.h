/**
 * @file raised.h
 * @brief An exception class called with other arguments than one str
 * (`raise ValueError`, `raise ValueError("bad", n)`, `raise IndexError(i)`),
 * and what a native `except X as e` handler reads of the fault it took:
 * str(e), repr(e), type(e).__name__, and `raise` / `raise e` again.
 *
 * Such a fault carries the repr of its argument tuple (Fault::called): the
 * loader calls the class with those arguments again, as CPython's raise
 * does, and str() and repr() follow BaseException's rules from it.
 */
#ifndef SPINE_COMPILER_CODEGEN_RAISED_H_
#define SPINE_COMPILER_CODEGEN_RAISED_H_

#include "spine/compiler/codegen/format.h"

namespace spine_cg {

/** A fault of @p kind (and program class @p cls, or null) whose text is @p args, the repr of its argument tuple. */
[[noreturn]] SPINE_CG_OUTLINE inline void RaiseCalled(int kind, const char* cls, const Str& args) {
  size_t name = cls ? __builtin_strlen(cls) : 17;  // the longest builtin name: ZeroDivisionError
  // The class name and ": " go in front of it out of the module (codegen_support.h Report).
  if (static_cast<size_t>(args.bytes()) + name + 2 >= static_cast<size_t>(kFaultTextSize) - 1 ||
      __builtin_memchr(args.data(), 0, static_cast<size_t>(args.bytes())) != nullptr) {
    Raise(SPINE_FAULT_FALLBACK, "arguments raised in Python");
  }
  Fault f;
  f.kind = kind;
  f.cls = cls;
  f.message = nullptr;
  f.called = true;
  __builtin_memcpy(f.text, args.data(), static_cast<size_t>(args.bytes()));
  f.text[args.bytes()] = '\0';
  throw f;
}

/** `raise ValueError(...)` (a SpineFaultKind's class) with the argument tuple whose repr is @p args. */
[[noreturn]] inline void raise_called(int kind, const Str& args) { RaiseCalled(kind, nullptr, args); }

/** The same for the program's class of fault kind @p kind, @p cls a view of its name's literal. */
[[noreturn]] inline void raise_called(int kind, const Str& cls, const Str& args) {
  RaiseCalled(kind, cls.data(), args);
}

/** Is the repr @p text of an argument tuple that of a 1-tuple, "(x,)"? (No repr of several ends in ",)".) */
inline bool OneArgument(const char* text, size_t n) { return n >= 3 && text[n - 2] == ',' && text[n - 1] == ')'; }

/**
 * A fault of the kinds @p made has the bits of (classes whose __init__ makes their args of
 * the arguments they are called with) goes back to CPython, which knows its str() and repr().
 */
inline void RequireOwnArgs(const Fault& f, int64_t made) {
  if ((made >> f.kind) & 1) Raise(SPINE_FAULT_FALLBACK, "an exception whose __init__ made its args");
}

/**
 * str(e) of fault @p f (one of the kinds @p made: CPython's): its message, or for a called
 * class BaseException's rule: "" for no argument, the one argument's repr (the frontend
 * calls with one argument only values whose str() is their repr, and KeyError's str() is
 * its repr), else the tuple's repr.
 */
SPINE_CG_OUTLINE inline Str CaughtText(const Fault& f, int64_t made) {
  RequireOwnArgs(f, made);
  const char* t = f.Text();
  size_t n = __builtin_strlen(t);
  if (!f.called) return Str::Copy(t, static_cast<int64_t>(n));
  if (n == 2) return Str::Copy(t, 0);
  if (OneArgument(t, n)) return Str::Copy(t + 1, static_cast<int64_t>(n) - 3);
  return Str::Copy(t, static_cast<int64_t>(n));
}

/** type(e).__name__ of fault @p f. */
inline Str CaughtTypeName(const Fault& f) {
  const char* name = FaultClassName(f);
  return Str::Copy(name, static_cast<int64_t>(__builtin_strlen(name)));
}

/**
 * repr(e) of fault @p f (one of the kinds @p made: CPython's), BaseException's: `Name(repr
 * of the one argument)`, else the name and the argument tuple's repr. A str message whose
 * repr needs Unicode tables is CPython's.
 */
SPINE_CG_OUTLINE inline Str CaughtRepr(const Fault& f, int64_t made) {
  RequireOwnArgs(f, made);
  const char* name = FaultClassName(f);
  const char* t = f.Text();
  int64_t k = static_cast<int64_t>(__builtin_strlen(name)), n = static_cast<int64_t>(__builtin_strlen(t));
  ReprOut out(k + 4 * n + 4);
  out.Add(name, k);
  if (f.called && !OneArgument(t, static_cast<size_t>(n))) {
    out.Add(t, n);
    return out.Take();
  }
  out.Add("(", 1);
  if (f.called) {
    out.Add(t + 1, n - 3);
  } else if (f.kind == SPINE_FAULT_KEY) {
    out.Add(t, n);  // a KeyError's message is repr(key) already
  } else if (!ReprStr(out, Str::View(t, n))) {
    Raise(SPINE_FAULT_FALLBACK, "repr of non-ASCII text");
  }
  out.Add(")", 1);
  return out.Take();
}

/** `raise` (or `raise e`) in a handler: fault @p f goes on unwinding, as it came. */
[[noreturn]] inline void RethrowFault(const Fault& f) { throw f; }

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_RAISED_H_
