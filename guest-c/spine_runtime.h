/**
 * \file spine_runtime.h
 * \brief The guest's C API: embed CPython, run one execution, cross back to the host.
 *
 * Every crossing is a (pointer, length) byte buffer. The runtime keeps no
 * host pointer: the host identifies an execution by an integer token it
 * chooses, and receives it back in each tool callback. The host keeps no
 * Python memory past a call: responses are malloc'd copies it frees with
 * spine_result_free().
 *
 * Threading: by default spine_init() and spine_execute() must be called on
 * one OS thread, the one that owns the interpreter. With
 * spine_config.thread_per_call, spine_execute() and spine_call_entry() may be
 * called from any thread, several at once: each call runs on the calling
 * thread's own thread state (made on its first call, emptied of the call's
 * thread-local storage and contextvars after each), and the calls take
 * turns on the GIL, which each releases while it waits in the host. spine_interrupt()
 * may be called from any thread. Functions return 0 on success and -1 on failure; the message of the
 * last failure on the calling thread is spine_last_error().
 */
#ifndef SPINE_RUNTIME_H
#define SPINE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "spine_protocol.h" /* spine_op, the interrupt reasons */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * \brief The host's side of every tool crossing.
 *
 * \param token   the token given to spine_execute() for this execution.
 * \param op      a spine_op.
 * \param handle  for SPINE_OP_RESOLVE, the handle that SPINE_OP_PREPARE returned.
 * \param request the canonical request JSON `{"args":...,"tool":name}` (not NUL-terminated).
 * \param out     a runtime-owned buffer of `cap` bytes for the response.
 * \return For CALL, RESOLVE, NATIVE, WAIT and FETCH: the response length. If it exceeds `cap`
 *         nothing was written, and the runtime calls again with SPINE_OP_FETCH
 *         and a buffer of at least that size. For PREPARE: the handle (0 means
 *         nothing was prepared). A negative value is a host failure; the
 *         program sees a RuntimeError.
 */
typedef int64_t (*spine_host_fn)(uintptr_t token, int op, uint64_t handle,
                                 const char *request, size_t request_len,
                                 char *out, size_t cap);

/** \brief One guest Python module given as source. */
typedef struct spine_module_source {
  const char *name;   /**< module name, e.g. "bootstrap" */
  const char *source; /**< UTF-8 source text */
  size_t source_len;  /**< bytes in source */
  const char *code;   /**< this module's code as an earlier start compiled it (a spine_compiled's), or NULL:
                           run instead of compiling the source when this interpreter made it; the caller
                           vouches that it is whole and was compiled from this very source */
  size_t code_len;    /**< bytes in code */
} spine_module_source;

/** \brief A module's code compiled from source by spine_init(), for the caller to keep and give back
 *         as spine_module_source.code at a later start: importlib's magic number (4 bytes), the length
 *         (u32 little-endian) and text of sys.version, then the code object in marshal's format. */
typedef struct spine_compiled {
  char *code;      /**< malloc'd (the caller frees it); NULL when the module's given code was used */
  size_t code_len; /**< bytes in code */
} spine_compiled;

/** \brief Everything spine_init() needs. */
typedef struct spine_config {
  spine_host_fn host;                 /**< the tool callback; required */
  const spine_module_source *modules; /**< guest modules, loaded in this order; the last one named "bootstrap" is required */
  size_t module_count;                /**< entries in modules */
  int thread_per_call;                /**< run each call on the calling thread's own thread state (see Threading) */
  int hosted;                         /**< CPython is already running (spine-guest inside /usr/bin/python3): use it, GIL held by the caller */
  spine_compiled *compiled;           /**< optional, module_count zeroed slots: filled for each module compiled from source */
} spine_config;

/** \brief The output of one execution; every buffer is owned by the caller after spine_execute(). */
typedef struct spine_result {
  char *response;      /**< the response JSON (value or error envelope) */
  size_t response_len; /**< bytes in response */
  char *out;           /**< the program's captured stdout */
  size_t out_len;      /**< bytes in out */
  char *err;           /**< the program's captured stderr */
  size_t err_len;      /**< bytes in err */
  int interrupted;     /**< the reason given to spine_interrupt(), 0 if none */
} spine_result;

/**
 * \brief Initialise CPython (isolated, no site, no signal handlers), load the
 *        guest modules and cache bootstrap's entry points. Once per process;
 *        a second call fails.
 */
int spine_init(const spine_config *config);

/**
 * \brief Run bootstrap.execute(request) for the execution named `token`.
 * \param token   non-zero, unique per execution; passed back to the host callback.
 * \param request the request JSON.
 * \param result  filled on success; release with spine_result_free().
 */
int spine_execute(uintptr_t token, const char *request, size_t request_len,
                  spine_result *result);

/**
 * \brief Run a bootstrap entry point that takes one string and returns nothing
 *        (`prefix_begin`, `prefix_feed`, `prefix_abort`), for the execution `token`.
 *        spine_interrupt(token) stops it at its next bytecode boundary wherever
 *        it is (it runs no program code, and a stream's analysis must not
 *        outlive the stream's deadline); the entry then fails with
 *        `_spine.Interrupt`.
 */
int spine_call_entry(uintptr_t token, const char *entry, const char *arg,
                     size_t arg_len);

/**
 * \brief Ask the execution `token` to stop. Any thread; returns 0 if the
 *        interrupt was scheduled, -1 if `token` is not running or was already
 *        interrupted. The program sees `_spine.Interrupt` at its next bytecode
 *        boundary, again and again until it leaves user code; a single long C
 *        call is not interrupted (the sandbox kills for that).
 */
int spine_interrupt(uintptr_t token, int reason);

/** \brief Release the buffers of a result and zero it. */
void spine_result_free(spine_result *result);

/** \brief The message of the last failure on this thread ("" if none). */
const char *spine_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* SPINE_RUNTIME_H */
