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

/** \brief Begin the execution `token` on this thread, with the GIL held and
 * this thread's state running it; -1 (no Python error) if out of memory. */
int spine_module_begin(uintptr_t token);

/** \brief Like spine_module_begin, for a bootstrap entry (prefix analysis):
 * an interrupt stops it wherever it is, not only in the program's frames. */
int spine_module_begin_entry(uintptr_t token);

/** \brief End this thread's execution (GIL held); returns the interrupt reason it got (0: none). */
int spine_module_end(void);

/** \brief See spine_interrupt(). */
int spine_module_interrupt(uintptr_t token, int reason);

#endif /* SPINE_MODULE_H */
