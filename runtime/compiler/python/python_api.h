// SpineRuntimeApi over Python objects: the Python binding calls module
// functions with Python arguments viewed in place and gets Python results
// built directly, with no runtime containers in between.
#ifndef SPINE_COMPILER_PYTHON_PYTHON_API_H_
#define SPINE_COMPILER_PYTHON_PYTHON_API_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "spine/compiler/module_abi.h"

namespace spine::compiler::py {

/** The table (static storage). Call with the GIL held. */
const SpineRuntimeApi* PythonApi();

/**
 * Borrowed view of @p o: exact int (in int64), float, bool and str (UTF-8,
 * cached in the object) as immediates, exact list/tuple/dict/set as object
 * tags, None as SPINE_TYPE_NULL; anything else (subclasses, other types,
 * huge ints, lone surrogates) is an opaque null SPINE_TYPE_POINTER, which
 * the module reports as a type mismatch. Never leaves a Python error set.
 */
void ViewPy(PyObject* o, SpineValue* out);

/** The Python object for an owned value (steals object references); null with a Python error set on failure. */
PyObject* ToPy(SpineValue* v);

}  // namespace spine::compiler::py

#endif  // SPINE_COMPILER_PYTHON_PYTHON_API_H_
