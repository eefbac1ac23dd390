// spine_compiler: the small extension module of the compiler. Its import
// loads libspine_compiler.so (ast.*, rewriter.*, runtime.Module*
// registrations); the Python frontend calls those through spine_runtime.
// It adds what Python cannot learn from the registry: where the headers for
// generated code live, the built-in op names, and native_call(), the direct
// Python -> module call path (native_call.h).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "native_call.h"
#include "spine/compiler/expr.h"
#include "spine/compiler/module_abi.h"

namespace {

struct State {
  PyObject* native_call_type;
};

State* StateOf(PyObject* m) { return static_cast<State*>(PyModule_GetState(m)); }

PyObject* ModNativeCall(PyObject* m, PyObject* const* args, Py_ssize_t nargs) {
  return spine::compiler::py::NativeCallFor(StateOf(m)->native_call_type, args, nargs);
}

int Traverse(PyObject* m, visitproc visit, void* arg) {
  Py_VISIT(StateOf(m)->native_call_type);
  return 0;
}

int ClearState(PyObject* m) {
  Py_CLEAR(StateOf(m)->native_call_type);
  return 0;
}

PyMethodDef g_methods[] = {
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
  return PyModule_AddIntConstant(m, "MODULE_ABI_VERSION", SPINE_MODULE_ABI_VERSION);
}

PyModuleDef_Slot g_slots[] = {{Py_mod_exec, reinterpret_cast<void*>(Exec)}, {0, nullptr}};

PyModuleDef g_def = {PyModuleDef_HEAD_INIT, "spine_compiler",
                     "Loads the spine compiler into the runtime registry; include_path for generated code.",
                     sizeof(State), g_methods, g_slots, Traverse, ClearState, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit_spine_compiler(void) { return PyModuleDef_Init(&g_def); }
