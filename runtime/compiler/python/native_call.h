// spine_compiler.NativeCall: a module function called straight from Python.
// Arguments are viewed in place (python_api.h) and results built as Python
// objects, so a call costs no runtime containers and no registry dispatch;
// faults become the same Python exceptions the runtime binding raises.
#ifndef SPINE_COMPILER_PYTHON_NATIVE_CALL_H_
#define SPINE_COMPILER_PYTHON_NATIVE_CALL_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace spine::compiler::py {

/** Create the NativeCall type for module @p m (a heap type bound to it); null on error. */
PyObject* MakeNativeCallType(PyObject* m);

/**
 * native_call(module, name): the function @p name of a loaded module (a
 * spine_loader.LoadedModule, or the spine_runtime.Object runtime.ModuleLoader
 * returns) as a NativeCall, which keeps the module loaded. KeyError if the module has no such function.
 */
PyObject* NativeCallFor(PyObject* type, PyObject* const* args, Py_ssize_t nargs);

}  // namespace spine::compiler::py

#endif  // SPINE_COMPILER_PYTHON_NATIVE_CALL_H_
