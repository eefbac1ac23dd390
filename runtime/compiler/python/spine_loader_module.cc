// spine_loader: the extension module a process that only runs compiled
// modules imports (the sandbox's zygote, the in-process guest). Its import
// loads libspine_loader.so (runtime.ModuleLoader and the module runtime API)
// over libspine_runtime.so, and not libspine_compiler.so: the AST, rewriter
// and code generation are the compile service's, and resolving their
// relocations cost every process that runs cached modules about 2 ms.
// load() loads a module without the runtime binding (loaded_module.h), and
// native_call() is the direct Python -> module call path (native_call.h).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "loaded_module.h"
#include "native_call.h"
#include "python_box.h"

namespace {

struct State {
  PyObject* native_call_type;
  PyObject* loaded_module_type;
};

State* StateOf(PyObject* m) { return static_cast<State*>(PyModule_GetState(m)); }

PyObject* ModNativeCall(PyObject* m, PyObject* const* args, Py_ssize_t nargs) {
  return spine::compiler::py::NativeCallFor(StateOf(m)->native_call_type, args, nargs);
}

PyObject* ModLoad(PyObject* m, PyObject* path) { return spine::compiler::py::LoadModule(StateOf(m)->loaded_module_type, path); }

int Traverse(PyObject* m, visitproc visit, void* arg) {
  Py_VISIT(StateOf(m)->native_call_type);
  Py_VISIT(StateOf(m)->loaded_module_type);
  return 0;
}

int ClearState(PyObject* m) {
  Py_CLEAR(StateOf(m)->native_call_type);
  Py_CLEAR(StateOf(m)->loaded_module_type);
  return 0;
}

PyMethodDef g_methods[] = {
    {"load", ModLoad, METH_O, PyDoc_STR("load(path) -> LoadedModule: runtime.ModuleLoader(path), held from Python.")},
    {"native_call", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(ModNativeCall)), METH_FASTCALL,
     PyDoc_STR("native_call(module, name) -> NativeCall: call a module function with Python values directly.")},
    {nullptr, nullptr, 0, nullptr},
};

int Exec(PyObject* m) {
  PyObject* tp = spine::compiler::py::MakeNativeCallType(m);
  if (tp == nullptr) return -1;
  StateOf(m)->native_call_type = tp;
  Py_INCREF(tp);
  if (PyModule_AddObject(m, "NativeCall", tp) < 0) {
    Py_DECREF(tp);
    return -1;
  }
  PyObject* loaded = spine::compiler::py::MakeLoadedModuleType(m);
  if (loaded == nullptr) return -1;
  StateOf(m)->loaded_module_type = loaded;
  Py_INCREF(loaded);
  if (PyModule_AddObject(m, "LoadedModule", loaded) < 0) {
    Py_DECREF(loaded);
    return -1;
  }
  PyObject* raised = spine::compiler::py::RaisedType();
  if (raised == nullptr) return -1;
  Py_INCREF(raised);
  if (PyModule_AddObject(m, "Raised", raised) < 0) {
    Py_DECREF(raised);
    return -1;
  }
  return 0;
}

PyModuleDef_Slot g_slots[] = {{Py_mod_exec, reinterpret_cast<void*>(Exec)}, {0, nullptr}};

PyModuleDef g_def = {PyModuleDef_HEAD_INIT, "spine_loader",
                     "Loads compiled modules (runtime.ModuleLoader) and calls their functions from Python.",
                     sizeof(State), g_methods, g_slots, Traverse, ClearState, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit_spine_loader(void) { return PyModuleDef_Init(&g_def); }
