/*
 * gil_request.h: ask the thread that holds the GIL to hand it over now.
 */
#ifndef SPINE_GIL_REQUEST_H
#define SPINE_GIL_REQUEST_H

#include <Python.h>

/* Ask whoever holds `interp`'s GIL to drop it at its next instruction
 * boundary, so that a thread about to take it (PyGILState_Ensure) gets it
 * at once instead of after the switch interval. Any thread, GIL or not. */
void spine_request_gil(PyInterpreterState *interp);

#endif
