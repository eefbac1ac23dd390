// spine_loader.LoadedModule: a module loaded by runtime.ModuleLoader, held
// from Python without the runtime binding (spine_runtime), so a process that
// only runs compiled modules (the sandbox's zygote) does not import that
// extension at all: one shared object fewer to map, relocate and initialise
// in every process that starts one.
#ifndef SPINE_COMPILER_PYTHON_LOADED_MODULE_H_
#define SPINE_COMPILER_PYTHON_LOADED_MODULE_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace spine::compiler::py {

/** Create the LoadedModule type for module @p m (a heap type bound to it); null on error. */
PyObject* MakeLoadedModuleType(PyObject* m);

/**
 * load(path): runtime.ModuleLoader(path) as a LoadedModule of @p type, which
 * keeps one count on the module (dlclose runs with the last owner). Its
 * `handle` is the module's address (what native_call takes) and
 * function_names() lists its functions. Load errors raise what the runtime
 * binding raises for them (RuntimeError, with the registry function's name).
 */
PyObject* LoadModule(PyObject* type, PyObject* path);

}  // namespace spine::compiler::py

#endif  // SPINE_COMPILER_PYTHON_LOADED_MODULE_H_
