// SpineRuntimeApi over Python objects (python_api.h). Readers borrow from
// the caller's arguments, which the caller keeps alive and which no Python
// code can change while the native call runs (it holds the GIL throughout).
#include "python_api.h"

#include "constants.h"
#include "python_box.h"
#include "spine/compiler/value_format.h"

#include <climits>

#if PY_VERSION_HEX < 0x030B0000 || PY_VERSION_HEX >= 0x030C0000
#error "native sets mirror CPython 3.11's set table (setobject.c); check it against this version first"
#endif
#include <cstring>

namespace spine::compiler::py {

namespace {

void Clear(SpineValue* out, int32_t tag) {
  std::memset(out, 0, sizeof(*out));
  out->t = tag;
}

void Object(PyObject* o, int32_t tag, SpineValue* out) {
  Clear(out, tag);
  out->u.v_pointer = o;
}

PyObject* Obj(const SpineValue* v) { return static_cast<PyObject*>(v->u.v_pointer); }

int64_t SeqLen(const SpineValue* seq) {
  return seq->t == SPINE_TAG_TUPLE ? PyTuple_GET_SIZE(Obj(seq)) : PyList_GET_SIZE(Obj(seq));
}

void SeqGet(const SpineValue* seq, int64_t i, SpineValue* out) {
  PyObject* o = Obj(seq);
  ViewPy(seq->t == SPINE_TAG_TUPLE ? PyTuple_GET_ITEM(o, i) : PyList_GET_ITEM(o, i), out);
}

int TableNext(const SpineValue* table, int64_t* pos, SpineValue* key, SpineValue* value) {
  Py_ssize_t p = static_cast<Py_ssize_t>(*pos);
  PyObject *k, *v;
  if (table->t == SPINE_TAG_DICT) {
    if (!PyDict_Next(Obj(table), &p, &k, &v)) return 0;
    ViewPy(v, value);
  } else {
    Py_hash_t hash;
    if (!_PySet_NextEntry(Obj(table), &p, &k, &hash)) return 0;
  }
  ViewPy(k, key);
  *pos = p;
  return 1;
}

const char* StrData(const SpineValue* str, int64_t* size) {
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(Obj(str), &n);
  if (s == nullptr) {
    PyErr_Clear();
    n = 0;
    s = "";
  }
  *size = n;
  return s;
}

int NewStr(const char* data, int64_t size, SpineValue* out) {
  PyObject* s = ConstantStr(data, size);  // a literal of the module: the same object every call
  if (s == nullptr && PyErr_Occurred()) return -1;
  if (s == nullptr) s = PyUnicode_DecodeUTF8(data, static_cast<Py_ssize_t>(size), "strict");
  if (s == nullptr) return -1;
  Object(s, SPINE_TAG_STR_OBJECT, out);
  return 0;
}

void* NewList(int64_t) { return PyList_New(0); }

int ListAppend(void* list, SpineValue* item) {
  PyObject* x = ToPy(item);
  if (x == nullptr) return -1;
  int rc = PyList_Append(static_cast<PyObject*>(list), x);
  Py_DECREF(x);
  return rc;
}

void* NewTuple(SpineValue* items, int64_t n) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(n));
  bool ok = t != nullptr;
  for (int64_t i = 0; i < n; ++i) {  // every item is taken, also after a failure
    PyObject* x = ToPy(&items[i]);
    ok = ok && x != nullptr;
    if (ok) {
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), x);
    } else {
      Py_XDECREF(x);
    }
  }
  if (!ok) Py_CLEAR(t);
  return t;
}

void* NewDict() { return PyDict_New(); }

int DictSet(void* dict, SpineValue* key, SpineValue* value) {
  PyObject* k = ToPy(key);
  PyObject* v = ToPy(value);
  int rc = k && v ? PyDict_SetItem(static_cast<PyObject*>(dict), k, v) : -1;
  Py_XDECREF(k);
  Py_XDECREF(v);
  return rc;
}

void Release(SpineValue* value) {
  if (value->t >= SPINE_TYPE_OBJECT) Py_XDECREF(Obj(value));
}

int ListReplace(const SpineValue* list, SpineValue* items) {
  PyObject* target = Obj(list);
  PyObject* source = static_cast<PyObject*>(items->u.v_pointer);
  int rc = PyList_SetSlice(target, 0, PyList_GET_SIZE(target), source);
  Py_DECREF(source);
  return rc;
}

int DictReplace(const SpineValue* dict, SpineValue* entries) {
  PyObject* target = Obj(dict);
  PyObject* source = static_cast<PyObject*>(entries->u.v_pointer);
  PyDict_Clear(target);
  int rc = PyDict_Update(target, source);
  Py_DECREF(source);
  return rc;
}

// CPython's str hash: _Py_HashBytes over the str's canonical form, which for
// ASCII text is the UTF-8 bytes themselves; other text is made a str first
// (its UCS-1/2/4 form is what CPython hashes).
int64_t HashStr(const char* data, int64_t size) {
  bool ascii = true;
  for (int64_t i = 0; i < size && ascii; ++i) ascii = static_cast<unsigned char>(data[i]) < 0x80;
  if (ascii) return _Py_HashBytes(data, static_cast<Py_ssize_t>(size));
  PyObject* s = PyUnicode_DecodeUTF8(data, static_cast<Py_ssize_t>(size), "strict");
  Py_hash_t h = s ? PyObject_Hash(s) : -1;
  Py_XDECREF(s);
  if (h == -1) {  // out of memory only (native strs are valid UTF-8): a fixed stand-in
    PyErr_Clear();
    h = _Py_HashBytes(data, static_cast<Py_ssize_t>(size));
  }
  return h;
}

// The set tables are read and written as CPython 3.11 lays them out
// (PySetObject, cpython/setobject.h): the only way a native set can hold
// its keys in CPython's slots, and a returned set iterate, pop and grow
// exactly as the one CPython would have built.
PySetObject* SetObj(const SpineValue* v) { return reinterpret_cast<PySetObject*>(Obj(v)); }

int SetShape(const SpineValue* set, int64_t* mask, int64_t* fill, int64_t* finger) {
  PySetObject* so = SetObj(set);
  *mask = so->mask, *fill = so->fill, *finger = so->finger;
  return 0;
}

int SetSlot(const SpineValue* set, int64_t i, SpineValue* key, int64_t* hash) {
  const setentry& e = SetObj(set)->table[i];
  if (e.key == nullptr) return 0;
  if (e.key == _PySet_Dummy) return 2;
  ViewPy(e.key, key);
  *hash = e.hash;
  return 1;
}

void* NewSet(int64_t mask, int64_t finger) {
  auto* so = reinterpret_cast<PySetObject*>(PySet_New(nullptr));
  if (so == nullptr) return nullptr;
  if (mask + 1 > PySet_MINSIZE) {
    auto* table = static_cast<setentry*>(PyMem_Calloc(static_cast<size_t>(mask + 1), sizeof(setentry)));
    if (table == nullptr) {
      Py_DECREF(so);
      return nullptr;
    }
    so->table = table;
    so->mask = static_cast<Py_ssize_t>(mask);
  }
  so->finger = static_cast<Py_ssize_t>(finger);
  return so;
}

int SetPlace(void* set, int64_t i, SpineValue* key, int64_t hash) {
  auto* so = static_cast<PySetObject*>(set);
  setentry& e = so->table[i];
  if (key->t == SPINE_TYPE_NULL) {
    e.key = _PySet_Dummy;  // dummies hold no reference in 3.11
    e.hash = -1;
    ++so->fill;
    return 0;
  }
  PyObject* k = ToPy(key);
  if (k == nullptr) return -1;
  e.key = k;
  e.hash = static_cast<Py_hash_t>(hash);
  ++so->fill;
  ++so->used;
  return 0;
}

// The caller's set takes over the new set's table as it is (set_clear_internal's
// way of swapping a table out), so its slots, dummies, counters and finger are
// the native set's; the old keys (ints, strs, tuples of them: no finalizers)
// are released after the swap.
int SetReplace(const SpineValue* set, SpineValue* members) {
  auto* source = static_cast<PySetObject*>(members->u.v_pointer);
  if (!PySet_CheckExact(Obj(set))) {  // a frozenset never changes: CPython raises on its own
    Py_DECREF(source);
    return -1;
  }
  PySetObject* target = SetObj(set);
  setentry small_copy[PySet_MINSIZE];
  setentry* old_table = target->table;
  Py_ssize_t old_mask = target->mask;
  if (old_table == target->smalltable) {
    std::memcpy(small_copy, target->smalltable, sizeof(small_copy));
    old_table = small_copy;
  }
  if (source->table == source->smalltable) {
    std::memcpy(target->smalltable, source->smalltable, sizeof(target->smalltable));
    target->table = target->smalltable;
  } else {
    target->table = source->table;
  }
  target->mask = source->mask, target->fill = source->fill, target->used = source->used;
  target->finger = source->finger;
  std::memset(source->smalltable, 0, sizeof(source->smalltable));  // the source owns nothing now
  source->table = source->smalltable;
  source->mask = PySet_MINSIZE - 1, source->fill = 0, source->used = 0;
  Py_DECREF(source);
  for (Py_ssize_t i = 0; i <= old_mask; ++i) {
    PyObject* key = old_table[i].key;
    if (key != nullptr && key != _PySet_Dummy) Py_DECREF(key);
  }
  if (old_table != small_copy) PyMem_Free(old_table);
  return 0;
}

const SpineRuntimeApi kApi = {&SeqLen,     &SeqGet,   &TableNext, &StrData, &NewStr,  &NewList,
                              &ListAppend, &NewTuple, &NewDict,   &DictSet, &Release, &ListReplace,
                              &DictReplace, &HashStr, &SetShape,  &SetSlot, &NewSet,  &SetPlace,
                              &SetReplace, &Boxed,    &FormatValue};

}  // namespace

const SpineRuntimeApi* PythonApi() { return &kApi; }

void ViewPy(PyObject* o, SpineValue* out) {
  // Not representable until shown otherwise: an opaque null pointer, which no
  // conversion accepts (SPINE_TYPE_NULL is None, which Optional[T] accepts).
  Clear(out, SPINE_TYPE_POINTER);
  if (o == Py_None) {
    out->t = SPINE_TYPE_NULL;
  } else if (o == Py_True || o == Py_False) {
    out->t = SPINE_TYPE_BOOL;
    out->u.v_int = o == Py_True;
  } else if (PyLong_CheckExact(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return;  // not an int64: CPython computes this call
    out->t = SPINE_TYPE_INT;
    out->u.v_int = v;
  } else if (PyFloat_CheckExact(o)) {
    out->t = SPINE_TYPE_FLOAT;
    out->u.v_float = PyFloat_AS_DOUBLE(o);
  } else if (PyUnicode_CheckExact(o)) {
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(o, &n);  // cached in the object: valid while it lives
    if (s == nullptr || n > INT32_MAX) {
      PyErr_Clear();  // lone surrogates: not UTF-8, so CPython computes this call
      return;
    }
    out->t = SPINE_TYPE_STR;
    out->p = static_cast<int32_t>(n);
    out->u.v_str = const_cast<char*>(s);
  } else if (PyList_CheckExact(o)) {
    Object(o, SPINE_TAG_LIST, out);
  } else if (PyTuple_CheckExact(o)) {
    Object(o, SPINE_TAG_TUPLE, out);
  } else if (PyDict_CheckExact(o)) {
    Object(o, SPINE_TAG_DICT, out);
  } else if (PySet_CheckExact(o) || PyFrozenSet_CheckExact(o)) {
    Object(o, SPINE_TAG_SET, out);
  }
}

PyObject* ToPy(SpineValue* v) {
  switch (v->t) {
    case SPINE_TYPE_INT: return PyLong_FromLongLong(v->u.v_int);
    case SPINE_TYPE_FLOAT: return PyFloat_FromDouble(v->u.v_float);
    case SPINE_TYPE_BOOL: return PyBool_FromLong(static_cast<long>(v->u.v_int));
    case SPINE_TYPE_STR: return PyUnicode_DecodeUTF8(v->u.v_str, v->p, "strict");
    case SPINE_TYPE_NULL: Py_RETURN_NONE;
    default:
      if (v->t >= SPINE_TYPE_OBJECT && v->u.v_pointer != nullptr) return Obj(v);  // the reference is handed over
      PyErr_SetString(PyExc_SystemError, "native module returned a value of an unknown kind");
      return nullptr;
  }
}

}  // namespace spine::compiler::py
