// spine_compiler: the small extension module of the compiler. Its import
// loads libspine_compiler.so (ast.*, rewriter.* registrations, and through
// libspine_loader.so runtime.Module*); the Python frontend calls those
// through spine_runtime. It adds what Python cannot learn from the registry:
// where the headers for generated code live and the built-in op names.
// Calling compiled modules is spine_loader's (spine_loader_module.cc).
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>

#include "spine/compiler/expr.h"
#include "spine/compiler/module_abi.h"
#include "spine/runtime/native_thread.h"

namespace {

int Exec(PyObject* m) {
  PyObject* dirs = PyUnicode_FromString(SPINE_CODEGEN_INCLUDE_PATH);
  if (dirs == nullptr || PyModule_AddObject(m, "include_path", dirs) < 0) {
    Py_XDECREF(dirs);
    return -1;
  }
  // Referencing the library here also keeps the linker from dropping it.
  const auto& names = spine::compiler::BuiltinOpNames();
  PyObject* ops = PyTuple_New(static_cast<Py_ssize_t>(names.size()));
  if (ops == nullptr) return -1;
  for (size_t i = 0; i < names.size(); ++i) {
    PyObject* s = PyUnicode_FromString(names[i].c_str());
    if (s == nullptr) {
      Py_DECREF(ops);
      return -1;
    }
    PyTuple_SET_ITEM(ops, static_cast<Py_ssize_t>(i), s);
  }
  if (PyModule_AddObject(m, "builtin_ops", ops) < 0) {
    Py_DECREF(ops);
    return -1;
  }
  // Modules link against the runtime library this process loaded (native_thread.h): its
  // path, as the dynamic linker found it.
  Dl_info runtime{};
  if (dladdr(reinterpret_cast<void*>(&SpineNativeThreadState), &runtime) == 0 || runtime.dli_fname == nullptr) {
    PyErr_SetString(PyExc_ImportError, "spine_compiler: cannot find the loaded runtime library");
    return -1;
  }
  if (PyModule_AddStringConstant(m, "runtime_library", runtime.dli_fname) < 0) return -1;
  // What follows the runtime library on a module's link line (cmake/cxx_runtime.cmake).
  if (PyModule_AddStringConstant(m, "module_link_flags", SPINE_MODULE_LINK_FLAGS) < 0) return -1;
  return PyModule_AddIntConstant(m, "MODULE_ABI_VERSION", SPINE_MODULE_ABI_VERSION);
}

PyModuleDef_Slot g_slots[] = {{Py_mod_exec, reinterpret_cast<void*>(Exec)}, {0, nullptr}};

PyModuleDef g_def = {PyModuleDef_HEAD_INIT, "spine_compiler",
                     "Loads the spine compiler into the runtime registry; include_path for generated code.",
                     0, nullptr, g_slots, nullptr, nullptr, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit_spine_compiler(void) { return PyModuleDef_Init(&g_def); }
