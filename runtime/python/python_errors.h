// The one mapping of runtime error kinds onto Python exception classes,
// shared by the Python bindings (spine_runtime, and spine_compiler's direct
// native calls) so both raise the same class for the same fault.
#ifndef SPINE_RUNTIME_PYTHON_PYTHON_ERRORS_H_
#define SPINE_RUNTIME_PYTHON_PYTHON_ERRORS_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "spine/runtime/error.h"

namespace spine::runtime::python {

/** The Python exception class of @p kind (RuntimeError for anything unlisted). */
inline PyObject* ExceptionFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kTypeError: return PyExc_TypeError;
    case ErrorKind::kValueError: return PyExc_ValueError;
    case ErrorKind::kIndexError: return PyExc_IndexError;
    case ErrorKind::kKeyError: return PyExc_KeyError;
    case ErrorKind::kOverflowError: return PyExc_OverflowError;
    default: return PyExc_RuntimeError;
  }
}

}  // namespace spine::runtime::python

#endif  // SPINE_RUNTIME_PYTHON_PYTHON_ERRORS_H_
