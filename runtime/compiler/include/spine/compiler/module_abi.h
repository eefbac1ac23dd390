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
 *
 * Containers cross as runtime objects (value tag = the runtime type index
 * below). A module reads arguments through SpineRuntimeApi without owning
 * them (they live for the call), converting them into its own unboxed
 * containers, and builds results through it as owned runtime objects.
 */
#ifndef SPINE_COMPILER_MODULE_ABI_H_
#define SPINE_COMPILER_MODULE_ABI_H_

#include "spine/runtime/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever anything in this file or the fault kinds changes. */
#define SPINE_MODULE_ABI_VERSION 2

/**
 * @brief A module function: @p num_args values at @p args (borrowed), the
 * result written to *@p ret (owned by the caller afterwards). Returns 0, or
 * -1 after reporting through SpineModuleCtx::set_error.
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
  SPINE_FAULT_TYPE = 4,      /**< Wrong argument count or type (the caller may fall back). */
  SPINE_FAULT_INDEX = 5,     /**< Python's IndexError. */
  SPINE_FAULT_KEY = 6,       /**< Python's KeyError; the message is repr(key). */
  SPINE_FAULT_RUNTIME = 7    /**< Python's RuntimeError (e.g. a dict changed size during iteration). */
};

/** Value tags of the runtime containers (the runtime's fixed type indices; the loader checks them). */
enum SpineContainerTag {
  SPINE_TAG_STR_OBJECT = 1, /**< A string object (arguments also come as SPINE_TYPE_STR immediates). */
  SPINE_TAG_LIST = 2,       /**< list. */
  SPINE_TAG_DICT = 3,       /**< dict. */
  SPINE_TAG_SET = 4,        /**< set. */
  SPINE_TAG_TUPLE = 5       /**< tuple. */
};

/**
 * @brief Runtime services for generated code, installed by the loader.
 * Readers borrow (valid while the argument lives); builders return owned
 * objects or write owned values, and take ownership of what they are given
 * even when they fail. Every function reports failure by its result (null
 * or -1) and never throws.
 */
typedef struct SpineRuntimeApi {
  /** Elements of a list or tuple object: a borrowed array of *@p size values. */
  const SpineValue* (*seq_items)(void* obj, int64_t* size);
  /**
   * Next live entry of a dict or set object at or after *@p pos: 1 with the
   * borrowed key (and value; null for a set) and *@p pos advanced, 0 at the end.
   */
  int (*table_next)(void* obj, int64_t* pos, const SpineValue** key, const SpineValue** value);
  /** Bytes of a string object. */
  const char* (*str_data)(void* obj, int64_t* size);
  /** An owned string value (immediate) copying @p size bytes; 0 or -1. */
  int (*new_str)(const char* data, int64_t size, SpineValue* out);
  /** A new list object with room for @p reserve elements, or null. */
  void* (*new_list)(int64_t reserve);
  /** Append an owned value to a list object; 0 or -1. */
  int (*list_append)(void* list, SpineValue* item);
  /** A new tuple object of @p n owned values, or null. */
  void* (*new_tuple)(SpineValue* items, int64_t n);
  /** A new dict object, or null. */
  void* (*new_dict)(void);
  /** d[key] = value with owned key and value; 0 or -1. */
  int (*dict_set)(void* dict, SpineValue* key, SpineValue* value);
  /** Release an owned value. */
  void (*release)(SpineValue* value);
} SpineRuntimeApi;

/** @brief Module context: written by the module (version) and by the loader (callbacks). */
typedef struct SpineModuleCtx {
  int32_t abi_version;  /**< SPINE_MODULE_ABI_VERSION of the generator. */
  int32_t reserved;     /**< Zero. */
  /** Record a fault for the calling thread; the text is copied. */
  void (*set_error)(int32_t kind, const char* message);
  /** Runtime services (see SpineRuntimeApi). */
  const SpineRuntimeApi* api;
} SpineModuleCtx;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // SPINE_COMPILER_MODULE_ABI_H_
