/*
 * Wake the interpreter's eval loop from any thread.
 *
 * CPython 3.11's Py_AddPendingCall, called from a thread other than the main
 * one, queues the call but recomputes `eval_breaker` as seen from the calling
 * thread, where pending calls "cannot be handled", so the flag stays clear
 * and the main thread never looks at its queue while it spins in pure
 * bytecode (fixed upstream in 3.12). Setting the flag is what a signal does
 * (`_PyEval_SignalReceived` forces it too); the main thread then runs its
 * pending calls and recomputes the flag itself. This is the only file that
 * sees CPython internals, and only this one field of them.
 */
#define Py_BUILD_CORE 1
#include <Python.h>

#include "internal/pycore_interp.h"
#include "internal/pycore_runtime.h"

#if PY_VERSION_HEX < 0x030B0000 || PY_VERSION_HEX >= 0x030C0000
#error "eval_breaker.c reads CPython 3.11 internals; revisit it for this version"
#endif

void spine_wake_eval_loop(void) {
  PyInterpreterState *interp = _PyRuntime.interpreters.main;
  if (interp != NULL) {
    _Py_atomic_store_relaxed(&interp->ceval.eval_breaker, 1);
  }
}
