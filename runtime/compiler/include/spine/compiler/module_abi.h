/**
 * @file module_abi.h
 * @brief The C ABI between the module loader and a generated module (seed
 * 001/004, FFI chapter). Valid C11 and C++17, no dependencies beyond
 * value.h, so generated code stays cheap to compile.
 *
 * A module exports four symbols:
 *  - `__mc_func_array__`: SpineBackendFunc[], one `name__c_api` per function;
 *  - `__mc_func_registry__`: SpineFuncRegistry naming the array's entries in
 *    order (names = one count byte, then that many NUL-terminated names);
 *  - `__mc_closures_names__`: the same encoding, functions that need a
 *    resource handle (none are generated today; the loader rejects modules
 *    that declare some rather than call them wrongly);
 *  - `__mc_module_ctx`: SpineModuleCtx; the module writes its ABI version,
 *    the loader fills in the callbacks before any function runs.
 */
#ifndef SPINE_COMPILER_MODULE_ABI_H_
#define SPINE_COMPILER_MODULE_ABI_H_

#include "spine/runtime/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever anything in this file or the fault kinds changes. */
#define SPINE_MODULE_ABI_VERSION 1

/**
 * @brief A module function: @p num_args values at @p args (borrowed), the
 * result written to *@p ret (immediates only today). Returns 0, or -1 after
 * reporting through SpineModuleCtx::set_error.
 */
typedef int (*SpineBackendFunc)(SpineValue* args, int num_args, SpineValue* ret, void* resource);

/** @brief Function table of a module. */
typedef struct SpineFuncRegistry {
  const char* names;        /**< Count byte, then NUL-terminated names. */
  SpineBackendFunc* funcs;  /**< Parallel to names. */
} SpineFuncRegistry;

/** Fault kinds a module reports (SpineModuleCtx::set_error). */
enum SpineFaultKind {
  SPINE_FAULT_FALLBACK = 1,  /**< Not representable natively (int64 overflow, deep recursion): run the Python function. */
  SPINE_FAULT_ZERODIV = 2,   /**< Python's ZeroDivisionError. */
  SPINE_FAULT_VALUE = 3,     /**< Python's ValueError. */
  SPINE_FAULT_TYPE = 4       /**< Wrong argument count or type (the caller may fall back). */
};

/** @brief Module context: written by the module (version) and by the loader (callbacks). */
typedef struct SpineModuleCtx {
  int32_t abi_version;  /**< SPINE_MODULE_ABI_VERSION of the generator. */
  int32_t reserved;     /**< Zero. */
  /** Record a fault for the calling thread; @p message is a static string. */
  void (*set_error)(int32_t kind, const char* message);
} SpineModuleCtx;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // SPINE_COMPILER_MODULE_ABI_H_
