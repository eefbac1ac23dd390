// SpineRuntimeApi::boxed over CPython's abstract object API (python_box.h).
#include "python_box.h"

#include "python_api.h"
#include "printed_output.h"

namespace spine::compiler::py {

namespace {

thread_local BoxArgs* g_call = nullptr;

PyObject* Obj(const SpineValue& v) { return static_cast<PyObject*>(v.u.v_pointer); }

int SetObject(PyObject* o, SpineValue* out) {
  if (o == nullptr) return -1;  // the exception is set
  out->u.v_pointer = o;
  out->p = 0;
  out->t = SPINE_TAG_PYOBJECT;
  return 0;
}

int SetScalar(int64_t x, int32_t tag, SpineValue* out) {
  out->u.v_int = x;
  out->p = 0;
  out->t = tag;
  return 0;
}

int Truth(int r, SpineValue* out) { return r < 0 ? -1 : SetScalar(r, SPINE_TYPE_BOOL, out); }

// SpineBoxBinary order; power is ternary in CPython's API (its third operand None here).
PyObject* PlainPower(PyObject* a, PyObject* b) { return PyNumber_Power(a, b, Py_None); }
PyObject* InPlacePower(PyObject* a, PyObject* b) { return PyNumber_InPlacePower(a, b, Py_None); }
using BinaryFunc = PyObject* (*)(PyObject*, PyObject*);
constexpr BinaryFunc kPlain[] = {PyNumber_Add,       PyNumber_Subtract, PyNumber_Multiply, PyNumber_TrueDivide,
                                 PyNumber_FloorDivide, PyNumber_Remainder, PlainPower,     PyNumber_And,
                                 PyNumber_Or,        PyNumber_Xor,      PyNumber_Lshift,   PyNumber_Rshift};
constexpr BinaryFunc kInPlace[] = {PyNumber_InPlaceAdd,       PyNumber_InPlaceSubtract, PyNumber_InPlaceMultiply,
                                   PyNumber_InPlaceTrueDivide, PyNumber_InPlaceFloorDivide,
                                   PyNumber_InPlaceRemainder, InPlacePower,             PyNumber_InPlaceAnd,
                                   PyNumber_InPlaceOr,        PyNumber_InPlaceXor,      PyNumber_InPlaceLshift,
                                   PyNumber_InPlaceRshift};
constexpr int64_t kOperators = sizeof(kPlain) / sizeof(kPlain[0]);
static_assert(kOperators == SPINE_BOX_INPLACE, "one function per SpineBoxBinary operator");

PyObject* Binary(int64_t code, PyObject* a, PyObject* b) {
  bool inplace = code >= SPINE_BOX_INPLACE;
  int64_t op = inplace ? code - SPINE_BOX_INPLACE : code;
  if (op < 0 || op >= kOperators) {
    PyErr_SetString(PyExc_SystemError, "unknown boxed operator");
    return nullptr;
  }
  return (inplace ? kInPlace : kPlain)[op](a, b);
}

PyObject* Unary(int64_t code, PyObject* a) {
  switch (code) {
    case 0: return PyNumber_Negative(a);
    case 1: return PyNumber_Positive(a);
    case 2: return PyNumber_Invert(a);
    default: return PyNumber_Absolute(a);
  }
}

PyObject* ClassOf(int64_t code) {
  static PyTypeObject* const types[] = {&PyLong_Type, &PyFloat_Type, &PyUnicode_Type, &PyBool_Type,
                                        &PyList_Type, &PyDict_Type,  &PyTuple_Type,   &PySet_Type};
  if (code == SPINE_BOX_CLASS_NONE) return reinterpret_cast<PyObject*>(Py_TYPE(Py_None));
  return reinterpret_cast<PyObject*>(types[code]);
}

// The object behind argument view @p v: a container or str object is itself;
// an immediate is looked up among the views of the call in progress.
int ArgObject(const SpineValue* v, SpineValue* out) {
  PyObject* o = nullptr;
  for (BoxArgs* call = g_call; call != nullptr && o == nullptr; call = call->outer) {
    if (v >= call->views && v < call->views + call->n) o = call->objects[v - call->views];
  }
  if (o == nullptr && v->t >= SPINE_TYPE_OBJECT) o = Obj(*v);
  if (o == nullptr) return 0;
  Py_INCREF(o);
  SetObject(o, out);
  return 1;
}

PyObject* CallMethod(SpineValue* args, int32_t n) {
  constexpr int32_t kMaxArgs = 8;
  if (n - 1 > kMaxArgs) {
    PyErr_SetString(PyExc_SystemError, "too many arguments for a boxed method call");
    return nullptr;
  }
  PyObject* name = PyUnicode_DecodeUTF8(args[0].u.v_str, args[0].p, "strict");
  if (name == nullptr) return nullptr;
  PyObject* stack[kMaxArgs];
  for (int32_t i = 1; i < n; ++i) stack[i - 1] = Obj(args[i]);
  PyObject* r = PyObject_VectorcallMethod(name, stack, static_cast<size_t>(n - 1), nullptr);
  Py_DECREF(name);
  return r;
}

PyObject* Name(const SpineValue& v) { return PyUnicode_DecodeUTF8(v.u.v_str, v.p, "strict"); }

PyObject* GetAttr(SpineValue* args) {
  PyObject* name = Name(args[1]);
  if (name == nullptr) return nullptr;
  PyObject* r = PyObject_GetAttr(Obj(args[0]), name);
  Py_DECREF(name);
  return r;
}

// The pending exception as one object (what `except ... as e` binds), the indicator cleared.
int TakeException(SpineValue* out) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (type == nullptr) {
    PyErr_SetString(PyExc_SystemError, "native code took an exception that is not set");
    return -1;
  }
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr) PyException_SetTraceback(value, traceback);
  Py_DECREF(type);
  Py_XDECREF(traceback);
  if (g_call != nullptr) g_call->raised = false;  // handled: nothing of this call is pending any more
  return SetObject(value, out);
}

// Set exception @p value again, with the traceback it had when taken (unwinding goes on).
int RestoreException(PyObject* value) {
  Py_INCREF(value);
  PyErr_Restore(reinterpret_cast<PyObject*>(Py_NewRef(Py_TYPE(value))), value, PyException_GetTraceback(value));
  return -1;
}

// CPython's exception for a native fault (module_abi.h SpineFaultKind) and its message: what
// the binding raises for it. A KeyError's message is repr(key): the key is read back from it.
int NewException(int64_t kind, const SpineValue& message, SpineValue* out) {
  PyObject* cls = kind == SPINE_FAULT_ZERODIV  ? PyExc_ZeroDivisionError
                  : kind == SPINE_FAULT_VALUE  ? PyExc_ValueError
                  : kind == SPINE_FAULT_INDEX  ? PyExc_IndexError
                  : kind == SPINE_FAULT_KEY    ? PyExc_KeyError
                  : kind == SPINE_FAULT_RUNTIME ? PyExc_RuntimeError
                                                : nullptr;
  if (cls == nullptr) return 0;
  PyObject* text = Name(message);
  PyObject* arg = text;
  if (text != nullptr && kind == SPINE_FAULT_KEY) {
    PyObject* ast = PyImport_ImportModule("ast");
    arg = ast == nullptr ? nullptr : PyObject_CallMethod(ast, "literal_eval", "O", text);
    Py_XDECREF(ast);
    Py_DECREF(text);
  }
  PyObject* e = arg == nullptr ? nullptr : PyObject_CallOneArg(cls, arg);
  Py_XDECREF(arg);
  if (e == nullptr) {  // not exactly CPython's exception: the caller lets CPython run the call
    PyErr_Clear();
    return 0;
  }
  SetObject(e, out);
  return 1;
}

// The exception being handled, as CPython's except blocks set it (PUSH_EXC_INFO / POP_EXCEPT):
// one slot of the thread (or generator) the call runs on, swapped and later swapped back.
int Handling(PyObject* e, SpineValue* out) {
  _PyErr_StackItem* item = PyThreadState_Get()->exc_info;
  PyObject* previous = item->exc_value;  // its reference goes to the caller
  item->exc_value = e == Py_None ? nullptr : Py_NewRef(e);
  return SetObject(previous != nullptr ? previous : Py_NewRef(Py_None), out);
}

int Matches(SpineValue* args, SpineValue* out) {
  PyObject* name = Name(args[1]);
  if (name == nullptr) return -1;
  PyObject* cls = PyDict_GetItemWithError(PyEval_GetBuiltins(), name);  // borrowed
  Py_DECREF(name);
  if (cls == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "except names no builtin");
    return -1;
  }
  return SetScalar(PyErr_GivenExceptionMatches(Obj(args[0]), cls), SPINE_TYPE_BOOL, out);
}

int DictNext(SpineValue* args, SpineValue* out) {
  Py_ssize_t pos = static_cast<Py_ssize_t>(args[1].u.v_int);
  PyObject *k, *v;
  if (!PyDict_Next(Obj(args[0]), &pos, &k, &v)) return 0;
  int64_t views = args[2].u.v_int;
  PyObject* sides[2] = {k, v};
  for (int i = 0; i < 2; ++i) {
    if (views & (1 << i)) {
      ViewPy(sides[i], &out[i]);  // borrowed from the dict, an argument of the call
    } else {
      Py_INCREF(sides[i]);
      SetObject(sides[i], &out[i]);
    }
  }
  args[1].u.v_int = pos;
  return 1;
}

int Op(int32_t op, SpineValue* a, SpineValue* out) {
  switch (op) {
    case SPINE_BOX_INCREF: Py_INCREF(Obj(a[0])); return 0;
    case SPINE_BOX_DECREF: Py_DECREF(Obj(a[0])); return 0;
    case SPINE_BOX_FROM: return SetObject(ToPy(&a[0]), out);
    case SPINE_BOX_ARG: return ArgObject(static_cast<const SpineValue*>(a[0].u.v_pointer), out);
    case SPINE_BOX_VIEW: ViewPy(Obj(a[0]), out); return 0;
    case SPINE_BOX_SEQ_ITEM: {
      PyObject* s = Obj(a[0]);
      PyObject* item = PyTuple_CheckExact(s) ? PyTuple_GET_ITEM(s, a[1].u.v_int) : PyList_GET_ITEM(s, a[1].u.v_int);
      Py_INCREF(item);
      return SetObject(item, out);
    }
    case SPINE_BOX_DICT_NEXT: return DictNext(a, out);
    case SPINE_BOX_BINARY: return SetObject(Binary(a[0].u.v_int, Obj(a[1]), Obj(a[2])), out);
    case SPINE_BOX_UNARY: return SetObject(Unary(a[0].u.v_int, Obj(a[1])), out);
    case SPINE_BOX_COMPARE: {
      PyObject* r = PyObject_RichCompare(Obj(a[1]), Obj(a[2]), static_cast<int>(a[0].u.v_int));
      if (r == nullptr) return -1;
      int t = PyObject_IsTrue(r);
      Py_DECREF(r);
      return Truth(t, out);
    }
    case SPINE_BOX_TRUTH: return Truth(PyObject_IsTrue(Obj(a[0])), out);
    case SPINE_BOX_STR: return SetObject(PyObject_Str(Obj(a[0])), out);
    case SPINE_BOX_REPR: return SetObject(PyObject_Repr(Obj(a[0])), out);
    case SPINE_BOX_FORMAT: return SetObject(PyObject_Format(Obj(a[0]), Obj(a[1])), out);
    case SPINE_BOX_LEN: {
      Py_ssize_t len = PyObject_Size(Obj(a[0]));
      return len < 0 ? -1 : SetScalar(len, SPINE_TYPE_INT, out);
    }
    case SPINE_BOX_GETITEM: return SetObject(PyObject_GetItem(Obj(a[0]), Obj(a[1])), out);
    case SPINE_BOX_SETITEM: return PyObject_SetItem(Obj(a[0]), Obj(a[1]), Obj(a[2]));
    case SPINE_BOX_CONTAINS: return Truth(PySequence_Contains(Obj(a[0]), Obj(a[1])), out);
    case SPINE_BOX_LIST: return SetObject(PySequence_List(Obj(a[0])), out);
    case SPINE_BOX_HASH: {
      Py_hash_t h = PyObject_Hash(Obj(a[0]));
      return h == -1 ? -1 : SetScalar(h, SPINE_TYPE_INT, out);
    }
    case SPINE_BOX_EQUAL: return Truth(PyObject_RichCompareBool(Obj(a[0]), Obj(a[1]), Py_EQ), out);
    case SPINE_BOX_ISINSTANCE: return Truth(PyObject_IsInstance(Obj(a[0]), ClassOf(a[1].u.v_int)), out);
    case SPINE_BOX_INT: return SetObject(PyNumber_Long(Obj(a[0])), out);
    case SPINE_BOX_FLOAT: return SetObject(PyNumber_Float(Obj(a[0])), out);
    case SPINE_BOX_GETATTR: return SetObject(GetAttr(a), out);
    case SPINE_BOX_EXC_TAKE: return TakeException(out);
    case SPINE_BOX_EXC_RESTORE: return RestoreException(Obj(a[0]));
    case SPINE_BOX_EXC_NEW: return NewException(a[0].u.v_int, a[1], out);
    case SPINE_BOX_EXC_MATCH: return Matches(a, out);
    case SPINE_BOX_EXC_HANDLING: return Handling(Obj(a[0]), out);
    case SPINE_BOX_PRINT: return KeepPrinted(a[0].u.v_str, a[0].p);
    default: PyErr_SetString(PyExc_SystemError, "unknown boxed operation"); return -1;
  }
}

}  // namespace

BoxArgs::BoxArgs(PyObject* const* objects, const SpineValue* views, Py_ssize_t n)
    : objects(objects), views(views), n(n), outer(g_call) {
  g_call = this;
}

BoxArgs::~BoxArgs() { g_call = outer; }

int Boxed(int32_t op, SpineValue* args, int32_t n, SpineValue* out) {
  int rc = op == SPINE_BOX_METHOD ? SetObject(CallMethod(args, n), out) : Op(op, args, out);
  if (rc < 0 && g_call != nullptr) g_call->raised = true;
  return rc;
}

PyObject* RaisedType() {
  static PyObject* type = PyErr_NewExceptionWithDoc(
      "spine_loader.Raised", "A Python exception (args[0]) raised by a native function's boxed operation.",
      PyExc_Exception, nullptr);
  return type;
}

}  // namespace spine::compiler::py
