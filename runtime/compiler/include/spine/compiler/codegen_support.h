/**
 * @file codegen_support.h
 * @brief The one header generated modules include: the module ABI and the
 * native library under codegen/ (arithmetic with Python's meaning, str,
 * list, dict, set, tuple, boundary conversions). No standard header, only
 * compiler builtins, so a small module compiles in well under a second with
 * `g++ -O2` (measured in runtime/compiler/RATIONALE.md).
 *
 * Errors inside generated code are C++ throws of a POD Fault, caught by the
 * function's `name__c_api` wrapper: nothing crosses the C boundary, and the
 * fast path pays nothing for them. Unwinding releases every native object.
 */
#ifndef SPINE_COMPILER_CODEGEN_SUPPORT_H_
#define SPINE_COMPILER_CODEGEN_SUPPORT_H_

#include "spine/compiler/codegen/arith.h"
#include "spine/compiler/codegen/boundary.h"
#include "spine/compiler/codegen/boxed.h"
#include "spine/compiler/codegen/optional.h"
#include "spine/compiler/codegen/vartuple.h"
#include "spine/compiler/codegen/hierarchy.h"
#include "spine/compiler/codegen/pymath.h"
#include "spine/compiler/codegen/pyround.h"
#include "spine/compiler/codegen/intbase.h"
#include "spine/compiler/codegen/format.h"
#include "spine/compiler/codegen/heapq.h"
#include "spine/compiler/codegen/strpad.h"
#include "spine/compiler/codegen/strsplit.h"
#include "spine/compiler/codegen/raised.h"

namespace spine_cg {

/**
 * Native frames are small, but unbounded recursion would overflow the C
 * stack where CPython raises RecursionError; past this depth the call goes
 * back to CPython, which then decides.
 */
struct DepthGuard {
  /** Enter a frame. */
  DepthGuard() {
    if (++Depth() > 800) {
      --Depth();
      Raise(SPINE_FAULT_FALLBACK, "native recursion depth exceeded");
    }
  }
  /** Leave a frame. */
  ~DepthGuard() { --Depth(); }
  DepthGuard(const DepthGuard&) = delete;             /**< Not copyable. */
  DepthGuard& operator=(const DepthGuard&) = delete;  /**< Not assignable. */
  /** Native frames on this thread, every module's (native_thread.h). */
  static int32_t& Depth() { return spine_native_thread.depth; }
};

/** Report @p kind / @p message through the module context; returns -1 for the wrapper to return. */
inline int Report(const SpineModuleCtx& ctx, int kind, const char* message) {
  if (ctx.set_error) ctx.set_error(kind, message);
  return -1;
}

/**
 * Report fault @p f; one of a program class goes as SPINE_FAULT_CLASS, its class name in
 * front of its message, and one of a class called with other arguments than one str as
 * SPINE_FAULT_CALLED, its class name in front of their tuple's repr (one too long for the
 * buffer lets CPython run the call).
 */
inline int Report(const SpineModuleCtx& ctx, const Fault& f) {
  if (f.kind < kFirstClassFault && !f.called) return Report(ctx, f.kind, f.Text());
  const char* name = FaultClassName(f);
  size_t wanted = __builtin_strlen(name) + 2 + __builtin_strlen(f.Text());
  if (wanted >= static_cast<size_t>(kFaultTextSize) - 1) {
    return Report(ctx, SPINE_FAULT_FALLBACK, "message raised in Python");
  }
  FaultText text;
  text.Add(name).Add(": ").Add(f.Text());
  return Report(ctx, f.called ? SPINE_FAULT_CALLED : SPINE_FAULT_CLASS, text.Data());
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_SUPPORT_H_
