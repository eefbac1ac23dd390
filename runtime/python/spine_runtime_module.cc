// spine_runtime: the CPython binding of the runtime.
//
//   Function   wraps a function handle; called through vectorcall, so
//              positional and keyword arguments arrive as one borrowed array
//              plus a tuple of names and reach the runtime's CallFrame
//              without a dict or a heap allocation (up to 8 arguments).
//   Object     base class for runtime objects: holds one count (retained on
//              wrap, released on dealloc); Python classes are registered for
//              runtime types by type name with register_object.
//
// Modern module shape: module state, multi-phase init, heap types, a single
// method table. No C++ exception crosses into CPython: every entry point
// catches and converts to a Python exception with the runtime's message.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <climits>
#include <cstring>
#include <string_view>
#include <vector>

#include "python_errors.h"
#include "spine/runtime/c_api.h"
#include "spine/runtime/dict.h"
#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/set.h"
#include "spine/runtime/stack_buffer.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace rt = spine::runtime;

namespace {

struct ModuleState {
  PyTypeObject* function_type;
  PyTypeObject* object_type;
  PyObject* class_map;  // dict: runtime type index (int) -> registered Python class
};

struct FunctionObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  rt::object_t* fn;  // one count on a CallableNode
};

struct ObjectObject {
  PyObject_HEAD
  rt::object_t* handle;  // one count, or NULL before __init_handle_by_constructor__
};

PyModuleDef g_module_def;

PyObject* FunctionVectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames);

ModuleState* StateOf(PyObject* module) { return static_cast<ModuleState*>(PyModule_GetState(module)); }

// For types that may be subclassed in Python, find our module through the MRO.
ModuleState* StateFromType(PyTypeObject* tp) {
  PyObject* m = PyType_GetModuleByDef(tp, &g_module_def);
  return m ? StateOf(m) : nullptr;
}

// ---- errors ---------------------------------------------------------------

using rt::python::ExceptionFor;

PyObject* RaiseLastError() {
  PyErr_SetString(ExceptionFor(rt::LastErrorKind()), rt::LastErrorMessage());
  return nullptr;
}

// Call only inside a catch block.
PyObject* RaiseCurrentException() {
  rt::SetLastErrorFromCurrentException();
  return RaiseLastError();
}

// ---- Python -> runtime ----------------------------------------------------

PyObject* WrapValue(ModuleState* st, const rt::Any& v);

// A deep, owning conversion (used for container elements, which the callee may keep).
bool ToOwned(ModuleState* st, PyObject* o, rt::McValue* out, int depth);

// A borrowed view of an object (no count taken).
rt::Any ViewObject(rt::object_t* h) {
  rt::Value v;
  std::memset(&v, 0, sizeof(v));
  v.t = h->Index();
  v.u.v_pointer = h;
  return rt::Any(v);
}

// True for the Python types ToView converts into an owned runtime container.
bool IsContainer(PyObject* o) { return PyList_Check(o) || PyTuple_Check(o) || PyDict_Check(o) || PyAnySet_Check(o); }

// Borrowing conversion for top-level arguments: strings and objects are
// viewed in place; only containers are built (into `keep`).
bool ToView(ModuleState* st, PyObject* o, rt::Any* out, std::vector<rt::McValue>* keep) {
  if (o == Py_None) {
    *out = rt::McView();
  } else if (PyBool_Check(o)) {
    *out = rt::McView(o == Py_True);
  } else if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) {
      PyErr_SetString(PyExc_OverflowError, "int does not fit the runtime's 64-bit integer");
      return false;
    }
    if (v == -1 && PyErr_Occurred()) return false;
    *out = rt::McView(static_cast<int64_t>(v));
  } else if (PyFloat_Check(o)) {
    *out = rt::McView(PyFloat_AS_DOUBLE(o));
  } else if (PyUnicode_Check(o)) {
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(o, &n);  // cached in the str object: valid while it lives
    if (s == nullptr) return false;
    if (n > INT32_MAX) {
      PyErr_SetString(PyExc_OverflowError, "string too long for a runtime value");
      return false;
    }
    *out = rt::McView(std::string_view(s, static_cast<size_t>(n)));
  } else if (PyObject_TypeCheck(o, st->object_type)) {
    rt::object_t* h = reinterpret_cast<ObjectObject*>(o)->handle;
    if (h == nullptr) {
      PyErr_SetString(PyExc_ValueError, "runtime object is not initialised");
      return false;
    }
    *out = ViewObject(h);
  } else if (Py_IS_TYPE(o, st->function_type)) {
    *out = ViewObject(reinterpret_cast<FunctionObject*>(o)->fn);
  } else if (IsContainer(o)) {
    rt::McValue owned;
    if (!ToOwned(st, o, &owned, 0)) return false;
    keep->push_back(std::move(owned));
    *out = rt::McView(keep->back());
  } else {
    PyErr_Format(PyExc_TypeError, "cannot convert '%s' to a runtime value", Py_TYPE(o)->tp_name);
    return false;
  }
  return true;
}

bool ToOwned(ModuleState* st, PyObject* o, rt::McValue* out, int depth) {
  if (depth > 200) {
    PyErr_SetString(PyExc_RecursionError, "container nesting too deep to convert");
    return false;
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    std::vector<rt::McValue> items(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!ToOwned(st, PySequence_Fast_GET_ITEM(o, i), &items[static_cast<size_t>(i)], depth + 1)) return false;
    }
    if (PyTuple_Check(o)) {
      *out = rt::Tuple(std::move(items));
    } else {
      rt::List l;
      l.reserve(items.size());
      for (auto& v : items) l.append(std::move(v));
      *out = l;
    }
    return true;
  }
  if (PyDict_Check(o)) {
    rt::Dict d;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
      rt::McValue rk, rv;
      if (!ToOwned(st, k, &rk, depth + 1) || !ToOwned(st, v, &rv, depth + 1)) return false;
      d.set(std::move(rk), std::move(rv));
    }
    *out = d;
    return true;
  }
  if (PyAnySet_Check(o)) {
    rt::Set s;
    PyObject* it = PyObject_GetIter(o);
    if (it == nullptr) return false;
    PyObject* item;
    while ((item = PyIter_Next(it)) != nullptr) {
      rt::McValue v;
      bool ok = ToOwned(st, item, &v, depth + 1);
      Py_DECREF(item);
      if (!ok) {
        Py_DECREF(it);
        return false;
      }
      s.insert(std::move(v));
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return false;
    *out = s;
    return true;
  }
  if (o == Py_None || PyLong_Check(o) || PyFloat_Check(o) || PyUnicode_Check(o) ||
      PyObject_TypeCheck(o, st->object_type) || Py_IS_TYPE(o, st->function_type)) {
    // Scalars, strings and wrapped objects: view, then copy into ownership.
    rt::Any view;
    std::vector<rt::McValue> unused;
    if (!ToView(st, o, &view, &unused)) return false;
    *out = rt::McValue::CopyFrom(view);
    return true;
  }
  PyErr_Format(PyExc_TypeError, "cannot convert '%s' to a runtime value", Py_TYPE(o)->tp_name);
  return false;
}

// ---- runtime -> Python ----------------------------------------------------

PyObject* WrapObjectHandle(ModuleState* st, rt::object_t* h) {
  // The nearest registered class along the runtime parent chain, else Object.
  PyTypeObject* cls = st->object_type;
  for (int32_t t = h->Index(); t >= 0; t = rt::TypeContext::Global().ParentOf(t)) {
    PyObject* key = PyLong_FromLong(t);
    if (key == nullptr) return nullptr;
    PyObject* found = PyDict_GetItemWithError(st->class_map, key);
    Py_DECREF(key);
    if (found) {
      cls = reinterpret_cast<PyTypeObject*>(found);
      break;
    }
    if (PyErr_Occurred()) return nullptr;
  }
  PyObject* self = cls->tp_alloc(cls, 0);
  if (self == nullptr) return nullptr;
  SpineObjectRetain(h);
  reinterpret_cast<ObjectObject*>(self)->handle = h;
  return self;
}

PyObject* WrapFunctionHandle(ModuleState* st, rt::object_t* h) {
  auto* f = PyObject_New(FunctionObject, st->function_type);
  if (f == nullptr) return nullptr;
  f->vectorcall = nullptr;
  SpineObjectRetain(h);
  f->fn = h;
  f->vectorcall = FunctionVectorcall;
  return reinterpret_cast<PyObject*>(f);
}

template <typename Range>
PyObject* WrapSequence(ModuleState* st, const Range& items, bool tuple) {
  Py_ssize_t n = static_cast<Py_ssize_t>(items.size());
  PyObject* out = tuple ? PyTuple_New(n) : PyList_New(n);
  if (out == nullptr) return nullptr;
  Py_ssize_t i = 0;
  for (const rt::McValue& v : items) {
    PyObject* e = WrapValue(st, v);
    if (e == nullptr) {
      Py_DECREF(out);
      return nullptr;
    }
    if (tuple) {
      PyTuple_SET_ITEM(out, i++, e);
    } else {
      PyList_SET_ITEM(out, i++, e);
    }
  }
  return out;
}

PyObject* WrapValue(ModuleState* st, const rt::Any& v) {
  const rt::Value& x = v.value();
  switch (x.t) {
    case rt::TypeIndex::Null: Py_RETURN_NONE;
    case rt::TypeIndex::Bool: return PyBool_FromLong(x.u.v_int != 0);
    case rt::TypeIndex::Int: return PyLong_FromLongLong(x.u.v_int);
    case rt::TypeIndex::Float: return PyFloat_FromDouble(x.u.v_float);
    case rt::TypeIndex::Str: return PyUnicode_FromStringAndSize(x.u.v_str, x.p);
    case rt::TypeIndex::Pointer: return PyLong_FromVoidPtr(x.u.v_pointer);
    case rt::TypeIndex::DataType: {
      std::string s = rt::DataType(x.u.v_datatype).ToString();
      return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
    }
    default: break;
  }
  auto* h = static_cast<rt::object_t*>(x.u.v_pointer);
  switch (x.t) {
    case rt::TypeIndex::RuntimeStr: {
      const std::string& s = static_cast<rt::StrNode*>(h)->data;
      return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
    }
    case rt::TypeIndex::RuntimeList: return WrapSequence(st, static_cast<rt::ListNode*>(h)->data, false);
    case rt::TypeIndex::RuntimeTuple: return WrapSequence(st, static_cast<rt::TupleNode*>(h)->data, true);
    case rt::TypeIndex::RuntimeDict: {
      PyObject* d = PyDict_New();
      if (d == nullptr) return nullptr;
      for (const auto& e : static_cast<rt::DictNode*>(h)->table.entries()) {
        if (!e.live) continue;
        PyObject* k = WrapValue(st, e.key);
        PyObject* val = k ? WrapValue(st, e.value) : nullptr;
        if (val == nullptr || PyDict_SetItem(d, k, val) < 0) {
          Py_XDECREF(k);
          Py_XDECREF(val);
          Py_DECREF(d);
          return nullptr;
        }
        Py_DECREF(k);
        Py_DECREF(val);
      }
      return d;
    }
    case rt::TypeIndex::RuntimeSet: {
      PyObject* s = PySet_New(nullptr);
      if (s == nullptr) return nullptr;
      for (const auto& e : static_cast<rt::SetNode*>(h)->table.entries()) {
        if (!e.live) continue;
        PyObject* k = WrapValue(st, e.key);
        if (k == nullptr || PySet_Add(s, k) < 0) {
          Py_XDECREF(k);
          Py_DECREF(s);
          return nullptr;
        }
        Py_DECREF(k);
      }
      return s;
    }
    case rt::TypeIndex::RuntimeCallable: return WrapFunctionHandle(st, h);
    default: return WrapObjectHandle(st, h);
  }
}

// ---- Function --------------------------------------------------------------

// Arguments up to this count use stack storage only.
constexpr Py_ssize_t kStackArgs = 8;

PyObject* CallFunction(ModuleState* st, rt::object_t* fn, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  Py_ssize_t total = nargs + nkw;
  // Uninitialised stack storage: every slot is written below before use.
  rt::StackBuffer<rt::Any, kStackArgs> val_buf(static_cast<size_t>(total));
  rt::StackBuffer<std::string_view, kStackArgs> name_buf(static_cast<size_t>(nkw));
  rt::Any* vals = val_buf.data();
  std::string_view* names = name_buf.data();
  std::vector<rt::McValue> keep;  // owners of converted containers; empty (no allocation) otherwise
  for (Py_ssize_t i = 0; i < total; ++i) {
    if (!ToView(st, args[i], &vals[i], &keep)) return nullptr;
  }
  // Keep pointers stable: `keep` may have reallocated while converting, so
  // re-point container views at their final owners.
  if (!keep.empty()) {
    size_t k = 0;
    for (Py_ssize_t i = 0; i < total; ++i) {
      if (IsContainer(args[i])) vals[i] = rt::McView(keep[k++]);
    }
  }
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(kwnames, k), &n);
    if (s == nullptr) return nullptr;
    names[k] = std::string_view(s, static_cast<size_t>(n));
  }
  rt::CallFrame frame;
  frame.arg_count = static_cast<size_t>(nargs);
  frame.args = vals;
  frame.kw_count = static_cast<size_t>(nkw);
  frame.kw_names = names;
  frame.kw_values = vals + nargs;
  rt::CallResult result;
  if (!rt::Callable::InvokeNode(static_cast<const rt::CallableNode*>(fn), frame, &result)) return RaiseLastError();
  if (result.size() == 0) Py_RETURN_NONE;
  if (result.size() == 1) return WrapValue(st, *result.Get(0));
  PyObject* tup = PyTuple_New(static_cast<Py_ssize_t>(result.size()));
  if (tup == nullptr) return nullptr;
  for (size_t i = 0; i < result.size(); ++i) {
    PyObject* e = WrapValue(st, *result.Get(i));
    if (e == nullptr) {
      Py_DECREF(tup);
      return nullptr;
    }
    PyTuple_SET_ITEM(tup, static_cast<Py_ssize_t>(i), e);
  }
  return tup;
}

PyObject* FunctionVectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  try {
    auto* f = reinterpret_cast<FunctionObject*>(self);
    ModuleState* st = static_cast<ModuleState*>(PyType_GetModuleState(Py_TYPE(self)));
    return CallFunction(st, f->fn, args, PyVectorcall_NARGS(nargsf), kwnames);
  } catch (...) {
    return RaiseCurrentException();
  }
}

void FunctionDealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  SpineFuncFree(reinterpret_cast<FunctionObject*>(self)->fn);
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyObject* FunctionRepr(PyObject* self) {
  rt::Callable c{rt::object_p<rt::object_t>(reinterpret_cast<FunctionObject*>(self)->fn)};
  std::string r = "<spine_runtime.Function " + std::string(c.name()) + ">";
  return PyUnicode_FromStringAndSize(r.data(), static_cast<Py_ssize_t>(r.size()));
}

PyObject* FunctionGetName(PyObject* self, void*) {
  rt::Callable c{rt::object_p<rt::object_t>(reinterpret_cast<FunctionObject*>(self)->fn)};
  std::string_view n = c.name();
  return PyUnicode_FromStringAndSize(n.data(), static_cast<Py_ssize_t>(n.size()));
}

PyGetSetDef g_function_getset[] = {
    {"name", FunctionGetName, nullptr, PyDoc_STR("registered name of the function"), nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMemberDef g_function_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(FunctionObject, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot g_function_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(FunctionDealloc)},
    {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void*>(FunctionRepr)},
    {Py_tp_getset, g_function_getset},
    {Py_tp_members, g_function_members},
    {Py_tp_doc, const_cast<char*>("A runtime function handle; call it like a Python function.")},
    {0, nullptr},
};

PyType_Spec g_function_spec = {
    "spine_runtime.Function", sizeof(FunctionObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE,
    g_function_slots};

// ---- Object ----------------------------------------------------------------

PyObject* ObjectNew(PyTypeObject* tp, PyObject*, PyObject*) {
  PyObject* self = tp->tp_alloc(tp, 0);
  if (self) reinterpret_cast<ObjectObject*>(self)->handle = nullptr;
  return self;
}

void ObjectDealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  SpineObjectRelease(reinterpret_cast<ObjectObject*>(self)->handle);  // the ObjectFree of the seed
  tp->tp_free(self);
  Py_DECREF(tp);
}

rt::object_t* HandleOrRaise(PyObject* self) {
  rt::object_t* h = reinterpret_cast<ObjectObject*>(self)->handle;
  if (h == nullptr) PyErr_SetString(PyExc_ValueError, "runtime object is not initialised");
  return h;
}

PyObject* ObjectTypeIndex(PyObject* self, void*) {
  rt::object_t* h = HandleOrRaise(self);
  return h ? PyLong_FromLong(h->Index()) : nullptr;
}

PyObject* ObjectTypeName(PyObject* self, void*) {
  rt::object_t* h = HandleOrRaise(self);
  if (h == nullptr) return nullptr;
  try {
    std::string n = h->Name();
    return PyUnicode_FromStringAndSize(n.data(), static_cast<Py_ssize_t>(n.size()));
  } catch (...) {
    return RaiseCurrentException();
  }
}

PyObject* ObjectHandle(PyObject* self, void*) {
  return PyLong_FromVoidPtr(reinterpret_cast<ObjectObject*>(self)->handle);
}

PyObject* ObjectUseCount(PyObject* self, void*) {
  rt::object_t* h = HandleOrRaise(self);
  return h ? PyLong_FromLong(h->UseCount()) : nullptr;
}

// self.__init_handle_by_constructor__(fn, *args, **kwargs): call a runtime
// constructor and adopt the object it returns (the construction path of runtime objects).
PyObject* ObjectInitByConstructor(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  ModuleState* st = StateFromType(Py_TYPE(self));
  if (st == nullptr) return nullptr;
  if (nargs < 1 || !Py_IS_TYPE(args[0], st->function_type)) {
    PyErr_SetString(PyExc_TypeError, "__init_handle_by_constructor__ needs a runtime Function first");
    return nullptr;
  }
  try {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    rt::Callable fn{rt::object_p<rt::object_t>(reinterpret_cast<FunctionObject*>(args[0])->fn)};
    std::vector<rt::Any> vals(static_cast<size_t>(nargs - 1 + nkw));
    std::vector<rt::McValue> keep;
    keep.reserve(vals.size());  // no reallocation: views into keep stay valid
    for (size_t i = 0; i < vals.size(); ++i) {
      if (!ToView(st, args[1 + i], &vals[i], &keep)) return nullptr;
    }
    std::vector<std::string_view> names(static_cast<size_t>(nkw));
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      Py_ssize_t n;
      const char* s = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(kwnames, k), &n);
      if (s == nullptr) return nullptr;
      names[static_cast<size_t>(k)] = std::string_view(s, static_cast<size_t>(n));
    }
    rt::CallFrame frame;
    frame.arg_count = static_cast<size_t>(nargs - 1);
    frame.args = vals.data();
    frame.kw_count = static_cast<size_t>(nkw);
    frame.kw_names = names.data();
    frame.kw_values = vals.data() + (nargs - 1);
    rt::CallResult result;
    if (!fn.Invoke(frame, &result)) return RaiseLastError();
    rt::object_t* h = result.size() == 1 ? result.Get(0)->ObjectPtr() : nullptr;
    if (h == nullptr) {
      PyErr_SetString(PyExc_TypeError, "constructor did not return a runtime object");
      return nullptr;
    }
    SpineObjectRetain(h);
    auto* me = reinterpret_cast<ObjectObject*>(self);
    rt::object_t* old = me->handle;
    me->handle = h;
    SpineObjectRelease(old);
    Py_RETURN_NONE;
  } catch (...) {
    return RaiseCurrentException();
  }
}

PyObject* ObjectSameAs(PyObject* self, PyObject* other) {
  ModuleState* st = StateFromType(Py_TYPE(self));
  if (st == nullptr) return nullptr;
  bool same = PyObject_TypeCheck(other, st->object_type) &&
              reinterpret_cast<ObjectObject*>(other)->handle == reinterpret_cast<ObjectObject*>(self)->handle;
  return PyBool_FromLong(same);
}

PyObject* ObjectRichCompare(PyObject* self, PyObject* other, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  PyObject* same = ObjectSameAs(self, other);
  if (same == nullptr || op == Py_EQ) return same;
  int t = PyObject_IsTrue(same);
  Py_DECREF(same);
  return PyBool_FromLong(!t);
}

Py_hash_t ObjectHash(PyObject* self) {
  return _Py_HashPointer(reinterpret_cast<ObjectObject*>(self)->handle);
}

PyObject* ObjectRepr(PyObject* self) {
  rt::object_t* h = reinterpret_cast<ObjectObject*>(self)->handle;
  if (h == nullptr) return PyUnicode_FromFormat("<%s (uninitialised)>", Py_TYPE(self)->tp_name);
  std::string n = h->Name();
  return PyUnicode_FromFormat("<%s %s at %p>", Py_TYPE(self)->tp_name, n.c_str(), h);
}

PyGetSetDef g_object_getset[] = {
    {"type_index", ObjectTypeIndex, nullptr, PyDoc_STR("runtime type index"), nullptr},
    {"type_name", ObjectTypeName, nullptr, PyDoc_STR("runtime type name"), nullptr},
    {"handle", ObjectHandle, nullptr, PyDoc_STR("address of the runtime object (0 if none)"), nullptr},
    {"use_count", ObjectUseCount, nullptr, PyDoc_STR("owner count of the runtime object"), nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef g_object_methods[] = {
    {"__init_handle_by_constructor__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(ObjectInitByConstructor)),
     METH_FASTCALL | METH_KEYWORDS, PyDoc_STR("Call a runtime constructor and hold the object it returns.")},
    {"same_as", ObjectSameAs, METH_O, PyDoc_STR("True if both wrap the same runtime object.")},
    {nullptr, nullptr, 0, nullptr},
};

PyType_Slot g_object_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(ObjectNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(ObjectDealloc)},
    {Py_tp_getset, g_object_getset},
    {Py_tp_methods, g_object_methods},
    {Py_tp_richcompare, reinterpret_cast<void*>(ObjectRichCompare)},
    {Py_tp_hash, reinterpret_cast<void*>(ObjectHash)},
    {Py_tp_repr, reinterpret_cast<void*>(ObjectRepr)},
    {Py_tp_doc, const_cast<char*>("Base class of Python wrappers of runtime objects.")},
    {0, nullptr},
};

PyType_Spec g_object_spec = {"spine_runtime.Object", sizeof(ObjectObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, g_object_slots};

// ---- module functions ------------------------------------------------------

PyObject* ModGetGlobal(PyObject* module, PyObject* arg) {
  const char* name = PyUnicode_AsUTF8(arg);
  if (name == nullptr) return nullptr;
  SpineFunctionHandle h;
  if (SpineGetGlobal(name, &h) != 0) return RaiseLastError();
  PyObject* f = WrapFunctionHandle(StateOf(module), static_cast<rt::object_t*>(h));
  SpineFuncFree(h);  // the wrapper holds its own count
  return f;
}

PyObject* ModListGlobals(PyObject*, PyObject*) {
  try {
    std::vector<std::string> names = rt::FunctionRegistry::ListNames();
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
  } catch (...) {
    return RaiseCurrentException();
  }
}

PyObject* ModTypeIndex(PyObject*, PyObject* arg) {
  const char* name = PyUnicode_AsUTF8(arg);
  if (name == nullptr) return nullptr;
  int32_t idx;
  if (SpineTypeIndexOf(name, &idx) != 0) return RaiseLastError();
  return PyLong_FromLong(idx);
}

// register_object(type_name, cls) registers cls; register_object(type_name)
// returns a decorator (functools.partial of itself).
PyObject* ModRegisterObject(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs < 1 || nargs > 2 || !PyUnicode_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "register_object(type_name, cls=None)");
    return nullptr;
  }
  if (nargs == 1) {
    PyObject* functools = PyImport_ImportModule("functools");
    if (functools == nullptr) return nullptr;
    PyObject* self_fn = PyObject_GetAttrString(module, "register_object");
    PyObject* partial = self_fn ? PyObject_CallMethod(functools, "partial", "OO", self_fn, args[0]) : nullptr;
    Py_XDECREF(self_fn);
    Py_DECREF(functools);
    return partial;
  }
  ModuleState* st = StateOf(module);
  PyObject* cls = args[1];
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), st->object_type)) {
    PyErr_SetString(PyExc_TypeError, "register_object: class must derive from spine_runtime.Object");
    return nullptr;
  }
  const char* name = PyUnicode_AsUTF8(args[0]);
  if (name == nullptr) return nullptr;
  int32_t idx;
  if (SpineTypeIndexOf(name, &idx) != 0) return RaiseLastError();
  PyObject* key = PyLong_FromLong(idx);
  if (key == nullptr) return nullptr;
  int rc = PyDict_SetItem(st->class_map, key, cls);
  Py_DECREF(key);
  if (rc < 0) return nullptr;
  Py_INCREF(cls);
  return cls;
}

PyMethodDef g_module_methods[] = {
    {"get_global", ModGetGlobal, METH_O, PyDoc_STR("get_global(name) -> Function; KeyError if not registered.")},
    {"list_globals", ModListGlobals, METH_NOARGS, PyDoc_STR("Sorted names of all registered functions.")},
    {"type_index", ModTypeIndex, METH_O, PyDoc_STR("Runtime type index of a type name.")},
    {"register_object", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(ModRegisterObject)), METH_FASTCALL,
     PyDoc_STR("register_object(type_name, cls=None): wrap runtime objects of that type in cls.")},
    {nullptr, nullptr, 0, nullptr},
};

int ModExec(PyObject* module) {
  ModuleState* st = StateOf(module);
  st->function_type = reinterpret_cast<PyTypeObject*>(PyType_FromModuleAndSpec(module, &g_function_spec, nullptr));
  if (st->function_type == nullptr) return -1;
  st->object_type = reinterpret_cast<PyTypeObject*>(PyType_FromModuleAndSpec(module, &g_object_spec, nullptr));
  if (st->object_type == nullptr) return -1;
  st->class_map = PyDict_New();
  if (st->class_map == nullptr) return -1;
  if (PyModule_AddType(module, st->function_type) < 0) return -1;
  if (PyModule_AddType(module, st->object_type) < 0) return -1;
  return 0;
}

int ModTraverse(PyObject* module, visitproc visit, void* arg) {
  ModuleState* st = StateOf(module);
  Py_VISIT(st->function_type);
  Py_VISIT(st->object_type);
  Py_VISIT(st->class_map);
  return 0;
}

int ModClear(PyObject* module) {
  ModuleState* st = StateOf(module);
  Py_CLEAR(st->function_type);
  Py_CLEAR(st->object_type);
  Py_CLEAR(st->class_map);
  return 0;
}

void ModFree(void* module) { ModClear(static_cast<PyObject*>(module)); }

PyModuleDef_Slot g_module_slots[] = {
    {Py_mod_exec, reinterpret_cast<void*>(ModExec)},
    {0, nullptr},
};

}  // namespace

extern "C" PyMODINIT_FUNC PyInit_spine_runtime(void) {
  g_module_def = PyModuleDef{PyModuleDef_HEAD_INIT,
                             "spine_runtime",
                             "Python binding of the spine C++ runtime (function registry and objects).",
                             sizeof(ModuleState),
                             g_module_methods,
                             g_module_slots,
                             ModTraverse,
                             ModClear,
                             ModFree};
  return PyModuleDef_Init(&g_module_def);
}
