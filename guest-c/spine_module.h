/**
 * \file spine_module.h
 * \brief The `_spine` extension module: the guest's only way back to the host.
 *
 * Internal to guest-c: runtime.c registers the module before CPython starts
 * and tells it, per execution, which host callback and token to use.
 */
#ifndef SPINE_MODULE_H
#define SPINE_MODULE_H

#include <Python.h>

#include "spine_runtime.h"

/** \brief Module init for PyImport_AppendInittab (multi-phase). */
PyMODINIT_FUNC PyInit__spine(void);

/** \brief Set the callback every crossing uses (from spine_init). */
void spine_module_set_host(spine_host_fn host);

/** \brief Mark `token` as the running execution (0: none running). */
void spine_module_begin(uintptr_t token);

/** \brief Like spine_module_begin, for a bootstrap entry (prefix analysis):
 * an interrupt stops it wherever it is, not only in the program's frames. */
void spine_module_begin_entry(uintptr_t token);

/** \brief End the running execution; returns the interrupt reason it got (0: none). */
int spine_module_end(void);

/** \brief Make the eval loop check its pending calls soon (any thread); see eval_breaker.c. */
void spine_wake_eval_loop(void);

/** \brief See spine_interrupt(). */
int spine_module_interrupt(uintptr_t token, int reason);

#endif /* SPINE_MODULE_H */
