/*
 * zygote_module.c: the `_spine_zygote` extension module. spine-guest (the
 * launcher, launch.c) exec's Debian's own /usr/bin/python3 and imports this
 * module, whose serve() is the zygote: the guest runs on the interpreter
 * python3 users run, built with link-time and profile-guided optimisation,
 * which the static libpython archive an embedding program links lacks
 * (5-8% on compute-bound programs, bench/RESULTS.md). Its symbols come from
 * the executable (python3 exports the C API), as any extension module's do.
 */
#include <Python.h>
#include <signal.h>
#include <unistd.h>

#include "zygote.h"

/* python3's start-up changes dispositions an embedded interpreter (no
 * signal handlers installed) leaves alone: SIGPIPE and SIGXFSZ ignored, a
 * Python handler for SIGINT. The children inherit them, so they go back to
 * the defaults the confinement was written against (a write past
 * RLIMIT_FSIZE kills, as it did). */
static int restore_signal_defaults(void) {
  PyObject *signal_module = PyImport_ImportModule("signal");
  PyObject *old = signal_module ? PyObject_CallMethod(signal_module, "signal", "ii", SIGINT, 0 /* SIG_DFL */) : NULL;
  Py_XDECREF(old);
  Py_XDECREF(signal_module);
  if (old == NULL) {
    return -1;
  }
  return signal(SIGPIPE, SIG_DFL) == SIG_ERR || signal(SIGXFSZ, SIG_DFL) == SIG_ERR ? -1 : 0;
}

/* What programs could see of the launch, made what the embedded interpreter
 * showed: sys.argv [''] and no sys.orig_argv (python3's hold the start code
 * and this module's path), this module out of sys.modules (the start code's
 * frame keeps it alive), and a __main__ without the start code's names. */
static int forget_the_launch(void) {
  PyObject *argv = Py_BuildValue("[s]", "");
  PyObject *orig = PyList_New(0);
  int rc = argv != NULL && orig != NULL && PySys_SetObject("argv", argv) == 0 &&
                   PySys_SetObject("orig_argv", orig) == 0 &&
                   (PyDict_GetItemString(PyImport_GetModuleDict(), "_spine_zygote") == NULL ||
                    PyDict_DelItemString(PyImport_GetModuleDict(), "_spine_zygote") == 0)
               ? 0
               : -1;
  Py_XDECREF(argv);
  Py_XDECREF(orig);
  PyObject *main_module = rc == 0 ? PyImport_AddModule("__main__") : NULL; /* borrowed */
  PyObject *names = main_module ? PyDict_Keys(PyModule_GetDict(main_module)) : NULL;
  if (names == NULL) {
    return -1;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names) && rc == 0; i++) {
    PyObject *name = PyList_GET_ITEM(names, i);
    if (PyUnicode_Check(name) && PyUnicode_GET_LENGTH(name) > 0 && PyUnicode_READ_CHAR(name, 0) != '_') {
      rc = PyDict_DelItem(PyModule_GetDict(main_module), name);
    }
  }
  Py_DECREF(names);
  return rc;
}

static PyObject *serve(PyObject *self, PyObject *args) {
  (void)self;
  (void)args;
  if (forget_the_launch() < 0 || restore_signal_defaults() < 0) {
    if (!PyErr_Occurred()) {
      PyErr_SetFromErrno(PyExc_OSError);
    }
    return NULL;
  }
  int status = spine_zygote_serve();
  /* The zygote never returns to python3: no finalisation, no atexit. */
  fflush(NULL);
  _exit(status);
}

static PyMethodDef k_methods[] = {
    {"serve", serve, METH_NOARGS, "Run spine's zygote on fd 3; never returns."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef k_module = {PyModuleDef_HEAD_INIT, "_spine_zygote", NULL, -1, k_methods,
                                      NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__spine_zygote(void) { return PyModule_Create(&k_module); }
