// Boxed values through the Python binding: SpineRuntimeApi::boxed runs each
// operation on a boxed value with CPython's abstract object API, so its
// meaning (results, exceptions and their messages) is CPython's own.
#ifndef SPINE_COMPILER_PYTHON_PYTHON_BOX_H_
#define SPINE_COMPILER_PYTHON_PYTHON_BOX_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "spine/compiler/module_abi.h"

namespace spine::compiler::py {

/** SpineRuntimeApi::boxed (module_abi.h, SpineBoxOp). */
int Boxed(int32_t op, SpineValue* args, int32_t n, SpineValue* out);

/**
 * @brief The arguments of the native call in progress on this thread, so a
 * boxed parameter is the caller's very object (its view alone would lose
 * identity). Nested calls (a boxed operation running Python code that calls
 * another native function) restore the outer call's on exit.
 */
struct BoxArgs {
  BoxArgs(PyObject* const* objects, const SpineValue* views, Py_ssize_t n);
  BoxArgs(const BoxArgs&) = delete;
  BoxArgs& operator=(const BoxArgs&) = delete;
  ~BoxArgs();

  PyObject* const* objects;  /**< The call's arguments. */
  const SpineValue* views;   /**< Their views, as the module reads them. */
  Py_ssize_t n;              /**< How many. */
  bool raised = false;       /**< A boxed operation of this call raised (its exception is set). */
  BoxArgs* outer;            /**< The call this one runs inside, if any. */
};

/**
 * The exception class a native call raises to carry a Python exception a
 * boxed operation raised (args[0]): the caller re-raises args[0] as it is,
 * where any other exception of a native function may mean "let CPython run it".
 */
PyObject* RaisedType();

}  // namespace spine::compiler::py

#endif  // SPINE_COMPILER_PYTHON_PYTHON_BOX_H_
