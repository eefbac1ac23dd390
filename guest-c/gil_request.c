/*
 * Ask the thread that holds the GIL to hand it over now.
 *
 * An interrupt from another thread (the in-process engine's deadline or
 * cancellation, from a Go thread) must take the GIL to arm the running
 * program's trace function. A thread that wants the GIL first waits the
 * switch interval (5 ms by default) and only then asks the holder to drop
 * it, so every interrupt of a program spinning in bytecode waited those
 * 5 ms: a deadline in process ended 6 ms late, against under 1 ms in the
 * sandbox (bench/RESULTS.md). Asking at once is what CPython's take_gil
 * does when that interval has passed: set the interpreter's
 * gil_drop_request and eval_breaker. The holder drops the GIL at its next
 * eval-breaker check, waits (FORCE_SWITCHING) until another thread has
 * taken it, and whichever thread takes it clears the request. A request
 * that finds no holder is cleared by the next thread to take the GIL; at
 * worst a holder drops the GIL once for nothing.
 *
 * This is the only file that sees CPython internals, and only these two
 * fields of them; it is its own translation unit because it defines
 * Py_BUILD_CORE.
 */
#define Py_BUILD_CORE 1
#include "gil_request.h"

#include "internal/pycore_interp.h"

#if PY_VERSION_HEX < 0x030B0000 || PY_VERSION_HEX >= 0x030C0000
#error "gil_request.c reads CPython 3.11 internals; revisit it for this version"
#endif

void spine_request_gil(PyInterpreterState *interp) {
  if (interp != NULL) {
    _Py_atomic_store_relaxed(&interp->ceval.gil_drop_request, 1);
    _Py_atomic_store_relaxed(&interp->ceval.eval_breaker, 1);
  }
}
