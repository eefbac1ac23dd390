// spine_loader.LoadedModule (loaded_module.h).
#include "loaded_module.h"

#include <string>

#include "python_errors.h"
#include "spine/compiler/module_loader.h"
#include "spine/runtime/error.h"
#include "spine/runtime/registry.h"

namespace spine::compiler::py {

namespace {

struct LoadedModuleObject {
  PyObject_HEAD
  LibraryModuleNode* module;  // one count
};

LibraryModuleNode* ModuleOf(PyObject* self) { return reinterpret_cast<LoadedModuleObject*>(self)->module; }

PyObject* Handle(PyObject* self, void*) { return PyLong_FromVoidPtr(ModuleOf(self)); }

PyObject* Path(PyObject* self, void*) {
  const std::string& path = ModuleOf(self)->path;
  return PyUnicode_DecodeFSDefaultAndSize(path.data(), static_cast<Py_ssize_t>(path.size()));
}

PyObject* FunctionNames(PyObject* self, PyObject*) {
  const auto& names = ModuleOf(self)->names;
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(names.size()));
  if (out == nullptr) return nullptr;
  for (size_t i = 0; i < names.size(); ++i) {
    PyObject* s = PyUnicode_FromStringAndSize(names[i].data(), static_cast<Py_ssize_t>(names[i].size()));
    if (s == nullptr) {
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), s);
  }
  return out;
}

void Dealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  if (LibraryModuleNode* m = ModuleOf(self)) m->DecCounter();
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyGetSetDef g_getset[] = {
    {"handle", Handle, nullptr, PyDoc_STR("address of the loaded module (what native_call takes)"), nullptr},
    {"path", Path, nullptr, PyDoc_STR("the file the module was loaded from"), nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef g_methods[] = {
    {"function_names", FunctionNames, METH_NOARGS, PyDoc_STR("function_names() -> [str]: the module's functions.")},
    {nullptr, nullptr, 0, nullptr},
};

PyType_Slot g_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(Dealloc)},
    {Py_tp_getset, g_getset},
    {Py_tp_methods, g_methods},
    {Py_tp_doc, const_cast<char*>("A compiled module loaded by runtime.ModuleLoader.")},
    {0, nullptr},
};

PyType_Spec g_spec = {"spine_loader.LoadedModule", sizeof(LoadedModuleObject), 0,
                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE, g_slots};

}  // namespace

PyObject* MakeLoadedModuleType(PyObject* m) { return PyType_FromModuleAndSpec(m, &g_spec, nullptr); }

PyObject* LoadModule(PyObject* type, PyObject* path) {
  Py_ssize_t len;
  const char* p = PyUnicode_Check(path) ? PyUnicode_AsUTF8AndSize(path, &len) : nullptr;
  if (p == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "load(path): path must be str");
    return nullptr;
  }
  LibraryModuleNode* module = nullptr;
  try {
    // Through the registry, as every other caller loads a module: one path, the same errors.
    rt::McValue loaded = rt::FunctionRegistry::Get("runtime.ModuleLoader")(std::string_view(p, static_cast<size_t>(len)));
    rt::object_t* o = loaded.ObjectPtr();
    if (o == nullptr || o->Index() != LibraryModuleNode::RuntimeTypeIndex()) {
      PyErr_SetString(PyExc_TypeError, "runtime.ModuleLoader did not return a module");
      return nullptr;
    }
    module = static_cast<LibraryModuleNode*>(o);
    module->IncCounter();
  } catch (const rt::Error& e) {
    PyErr_SetString(rt::python::ExceptionFor(e.kind()), e.what());
    return nullptr;
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
  auto* tp = reinterpret_cast<PyTypeObject*>(type);
  auto* self = reinterpret_cast<LoadedModuleObject*>(tp->tp_alloc(tp, 0));
  if (self == nullptr) {
    module->DecCounter();
    return nullptr;
  }
  self->module = module;
  return reinterpret_cast<PyObject*>(self);
}

}  // namespace spine::compiler::py
