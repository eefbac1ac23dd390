// spine_compiler.NativeCall (native_call.h).
#include "native_call.h"

#include <structmember.h>

#include <string>

#include "constants.h"
#include "printed_output.h"
#include "python_api.h"
#include "python_box.h"
#include "python_errors.h"
#include "spine/compiler/module_loader.h"
#include "spine/runtime/error.h"
#include "spine/runtime/stack_buffer.h"

namespace spine::compiler::py {

namespace {

struct NativeCallObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  SpineBackendFunc fn;
  LibraryModuleNode* module;  // one count: the code stays mapped while this object lives
  PyObject* name;
  ModuleImage image;  // where the module's str constants lie (constants.h)
};

using rt::python::ExceptionFor;  // the runtime binding's mapping (python_errors.h)

// The exception set in the interpreter, wrapped in RaisedType() so that the caller raises it as
// it is rather than running the Python version; returns null.
PyObject* RaiseAsIs() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr) PyException_SetTraceback(value, traceback);
  PyObject* wrapper = PyObject_CallOneArg(RaisedType(), value);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  if (wrapper != nullptr) {
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(wrapper)), wrapper);
    Py_DECREF(wrapper);
  }
  return nullptr;
}

PyObject* Call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* f = reinterpret_cast<NativeCallObject*>(self);
  if (kwnames && PyTuple_GET_SIZE(kwnames)) {
    PyErr_SetString(PyExc_TypeError, "native functions take positional arguments only");
    return nullptr;
  }
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  rt::StackBuffer<SpineValue, 8> values(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) ViewPy(args[i], &values.data()[i]);
  SpineValue ret;
  ret.t = SPINE_TYPE_NULL;
  ret.u.v_int = 0;
  rt::ClearLastError();
  ConstantScope constants(&f->image);
  BoxArgs boxed(args, values.data(), n);
  PrintedOutput printed;
  if (f->fn(values.data(), static_cast<int>(n), &ret, const_cast<SpineRuntimeApi*>(PythonApi())) != 0) {
    if (boxed.raised && rt::LastErrorKind() == rt::ErrorKind::kRuntimeError && PyErr_Occurred()) {
      // CPython's own exception from a boxed operation, raised where CPython raises it: after
      // what the function printed before it (a failed write's exception instead).
      PyObject *type, *value, *traceback;
      PyErr_Fetch(&type, &value, &traceback);
      if (printed.Write() == 0) {
        PyErr_Restore(type, value, traceback);
      } else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
      }
      return RaiseAsIs();
    }
    // Any other fault: what it printed is dropped (the caller may run the Python version).
    PyErr_Clear();  // a failed build may have left a MemoryError; the module's fault is what counts
    rt::ErrorKind kind = rt::LastErrorKind();
    PyErr_SetString(ExceptionFor(kind), kind == rt::ErrorKind::kNone ? "module function failed" : rt::LastErrorMessage());
    return nullptr;
  }
  PyObject* result = ToPy(&ret);
  if (result != nullptr && printed.Write() < 0) {
    // sys.stdout.write's exception (a closed file, a replaced stdout without write), raised as
    // it is: the function has run, so the caller must not run it again.
    Py_DECREF(result);
    return RaiseAsIs();
  }
  return result;
}

void Dealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  auto* f = reinterpret_cast<NativeCallObject*>(self);
  if (f->module) f->module->DecCounter();
  Py_XDECREF(f->name);
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyObject* Repr(PyObject* self) {
  return PyUnicode_FromFormat("<spine_compiler.NativeCall %U>", reinterpret_cast<NativeCallObject*>(self)->name);
}

PyMemberDef g_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(NativeCallObject, vectorcall), READONLY, nullptr},
    {"__name__", T_OBJECT, offsetof(NativeCallObject, name), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot g_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(Dealloc)},
    {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void*>(Repr)},
    {Py_tp_members, g_members},
    {Py_tp_doc, const_cast<char*>("A module function called directly with Python values.")},
    {0, nullptr},
};

PyType_Spec g_spec = {
    "spine_compiler.NativeCall", sizeof(NativeCallObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE,
    g_slots};

}  // namespace

PyObject* MakeNativeCallType(PyObject* m) { return PyType_FromModuleAndSpec(m, &g_spec, nullptr); }

PyObject* NativeCallFor(PyObject* type, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyUnicode_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "native_call(module, name)");
    return nullptr;
  }
  // The module is a spine_loader.LoadedModule or a spine_runtime.Object; its `handle` is the
  // runtime object's address.
  PyObject* h = PyObject_GetAttrString(args[0], "handle");
  if (h == nullptr) return nullptr;
  void* p = PyLong_AsVoidPtr(h);
  Py_DECREF(h);
  auto* o = static_cast<rt::object_t*>(p);
  if (o == nullptr || o->Index() != LibraryModuleNode::RuntimeTypeIndex()) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "native_call() needs a loaded module");
    return nullptr;
  }
  auto* mod = static_cast<LibraryModuleNode*>(o);
  Py_ssize_t len;
  const char* name = PyUnicode_AsUTF8AndSize(args[1], &len);
  if (name == nullptr) return nullptr;
  for (size_t i = 0; i < mod->names.size(); ++i) {
    if (mod->names[i] != std::string(name, static_cast<size_t>(len))) continue;
    auto* tp = reinterpret_cast<PyTypeObject*>(type);
    auto* f = reinterpret_cast<NativeCallObject*>(tp->tp_alloc(tp, 0));
    if (f == nullptr) return nullptr;
    f->vectorcall = Call;
    f->fn = mod->funcs[i];
    f->image = ModuleImage::Of(reinterpret_cast<const void*>(f->fn));
    mod->IncCounter();
    f->module = mod;
    Py_INCREF(args[1]);
    f->name = args[1];
    return reinterpret_cast<PyObject*>(f);
  }
  PyErr_Format(PyExc_KeyError, "module has no function %R", args[1]);
  return nullptr;
}

}  // namespace spine::compiler::py
