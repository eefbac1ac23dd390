/**
 * @file native_thread.h
 * @brief What generated native code keeps per thread: the runtime services of
 * the call in progress and the depth of native frames. One instance per thread
 * for every module, in this library's TLS.
 *
 * A module's own thread_local would take a slice of glibc's small static TLS
 * surplus when the module is dlopen'ed, and about a hundred loaded modules
 * exhaust it: every module after that fails to load (in a long-lived
 * in-process engine, for good). The dynamic TLS models avoid the limit but
 * cost a call per access (recursive fib natively 1.7x slower). So modules
 * link against this library and reach this one variable with the
 * initial-exec model: one %fs-relative access, no TLS of their own.
 */
#ifndef SPINE_RUNTIME_NATIVE_THREAD_H_
#define SPINE_RUNTIME_NATIVE_THREAD_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The per-thread state of native code. */
typedef struct SpineNativeThread {
  const void* api;   /**< The SpineRuntimeApi (module_abi.h) of the native call in progress. */
  int32_t depth;     /**< Native frames on this thread's stack, every module's. */
  int32_t reserved;  /**< Zero. */
} SpineNativeThread;

/** This thread's state (initial-exec: the library keeps its TLS static, native_thread.cc). */
extern __thread SpineNativeThread spine_native_thread
    __attribute__((tls_model("initial-exec"), visibility("default")));

/** The address of this thread's state. */
SpineNativeThread* SpineNativeThreadState(void) __attribute__((visibility("default")));

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // SPINE_RUNTIME_NATIVE_THREAD_H_
