/**
 * @file c_api.h
 * @brief The C API of the runtime. Every function returns 0 on success and
 * -1 on failure; on failure the message and kind are in this thread's last
 * error (SpineGetLastError). No C++ exception ever crosses this boundary.
 *
 * Ownership: a SpineValue written by the runtime into an out-parameter is
 * owned by the caller and released with SpineValueFree. SpineValues passed
 * in are borrowed for the duration of the call. STR values passed in need
 * not be NUL-terminated (p is the length).
 */
#ifndef SPINE_RUNTIME_C_API_H_
#define SPINE_RUNTIME_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "spine/runtime/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque handle to a function (a counted reference to a callable). */
typedef void* SpineFunctionHandle;
/** Opaque handle to a runtime object (an object_t*). */
typedef void* SpineObjectHandle;

/** Borrowed string slice used for keyword names. */
typedef struct SpineStrView {
  const char* data; /**< Bytes (not necessarily NUL-terminated). */
  size_t size;      /**< Length in bytes. */
} SpineStrView;

/** Look up global function @p name; *out receives a new handle. Fails if the name is unknown. */
int SpineGetGlobal(const char* name, SpineFunctionHandle* out);
/** Release a function handle (NULL is allowed). */
int SpineFuncFree(SpineFunctionHandle handle);
/**
 * @brief Call @p handle with @p num_args positional and @p num_kwargs
 * keyword arguments (parallel arrays @p kw_names / @p kw_values). *ret
 * receives the result owned by the caller: None for no result, the value for
 * one, a tuple object for several. On failure *ret is left unchanged.
 */
int SpineFuncCall(SpineFunctionHandle handle, const SpineValue* args, int num_args,
                  const SpineStrView* kw_names, const SpineValue* kw_values, int num_kwargs,
                  SpineValue* ret);
/** Add an owner to an object (NULL is allowed). */
int SpineObjectRetain(SpineObjectHandle obj);
/** Drop an owner of an object (NULL is allowed); the last owner frees it. */
int SpineObjectRelease(SpineObjectHandle obj);
/** Release what a runtime-produced value owns and set it to None. */
int SpineValueFree(SpineValue* value);
/** Type index of the runtime type named @p name. Fails if unknown. */
int SpineTypeIndexOf(const char* name, int32_t* out);
/** Message of this thread's last error ("" if none); valid until the next failing call on this thread. */
const char* SpineGetLastError(void);
/** Kind of this thread's last error (0 none, 1 runtime, 2 type, 3 value, 4 index, 5 key, 6 overflow). */
int SpineGetLastErrorKind(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // SPINE_RUNTIME_C_API_H_
