/**
 * @file boundary.h
 * @brief Conv<T>: values across the `name__c_api` boundary. Arguments are
 * read (borrowed) through the call's SpineRuntimeApi (runtime or Python
 * objects) into native unboxed values, checking
 * every element's tag exactly (a bool where an int is declared, or an int
 * where a float is, is a type mismatch: CPython would keep it, so the call
 * goes back to the Python function); results become owned objects of the
 * same API.
 */
#ifndef SPINE_COMPILER_CODEGEN_BOUNDARY_H_
#define SPINE_COMPILER_CODEGEN_BOUNDARY_H_

#include "spine/compiler/codegen/pyset.h"
#include "spine/runtime/native_thread.h"

/** Defined by every generated module; the loader installs the runtime services in it. */
extern "C" SpineModuleCtx __mc_module_ctx;

namespace spine_cg {

/** The runtime services of the call in progress on this thread (native_thread.h). */
inline const SpineRuntimeApi& Api() { return *static_cast<const SpineRuntimeApi*>(spine_native_thread.api); }

/** @brief For one `name__c_api` call: its `resource` (the caller's services) or the module's default. */
class ApiScope {
 public:
  /** Install @p resource (a SpineRuntimeApi*) or, if null, the loader's table. */
  explicit ApiScope(void* resource) : saved_(spine_native_thread.api) {
    spine_native_thread.api = resource ? resource : __mc_module_ctx.api;
  }
  ApiScope(const ApiScope&) = delete;             /**< Not copyable. */
  ApiScope& operator=(const ApiScope&) = delete;  /**< Not assignable. */
  ~ApiScope() { spine_native_thread.api = saved_; }

 private:
  const void* saved_;
};

/** @brief An owned runtime value, released unless handed over. */
struct OwnedValue {
  SpineValue v;  /**< The value (tag SPINE_TYPE_NULL while empty). */
  OwnedValue() { Clear(); }
  OwnedValue(const OwnedValue&) = delete;             /**< Not copyable. */
  OwnedValue& operator=(const OwnedValue&) = delete;  /**< Not assignable. */
  ~OwnedValue() {
    if (v.t != SPINE_TYPE_NULL) Api().release(&v);
  }
  /** Adopt object @p obj of tag @p tag; a null object is a failed build. */
  void Object(void* obj, int32_t tag) {
    if (obj == nullptr) Raise(SPINE_FAULT_FALLBACK, "the runtime could not build a result");
    v.u.v_pointer = obj;
    v.t = tag;
  }
  /** Give the value to *@p out. */
  void HandTo(SpineValue* out) {
    *out = v;
    Clear();
  }

 private:
  void Clear() {
    __builtin_memset(&v, 0, sizeof(v));
    v.t = SPINE_TYPE_NULL;
  }
};

/** Primary template: From (borrowing read, false on a type mismatch) and To (owned result). */
template <typename T>
struct Conv;

/** Write an int result. */
inline void SetInt(SpineValue* v, int64_t x) { v->u.v_int = x; v->p = 0; v->t = SPINE_TYPE_INT; }
/** Write a float result. */
inline void SetFloat(SpineValue* v, double x) { v->u.v_int = 0; v->u.v_float = x; v->p = 0; v->t = SPINE_TYPE_FLOAT; }
/** Write a bool result. */
inline void SetBool(SpineValue* v, bool x) { v->u.v_int = x ? 1 : 0; v->p = 0; v->t = SPINE_TYPE_BOOL; }

/** int. */
template <>
struct Conv<int64_t> {
  /** Exact tag. */
  static bool From(const SpineValue& v, int64_t* out) {
    *out = v.u.v_int;
    return v.t == SPINE_TYPE_INT;
  }
  /** Result. */
  static void To(int64_t x, SpineValue* out) { SetInt(out, x); }
};
/** float. */
template <>
struct Conv<double> {
  /** Exact tag. */
  static bool From(const SpineValue& v, double* out) {
    *out = v.u.v_float;
    return v.t == SPINE_TYPE_FLOAT;
  }
  /** Result. */
  static void To(double x, SpineValue* out) { SetFloat(out, x); }
};
/** bool. */
template <>
struct Conv<bool> {
  /** Exact tag. */
  static bool From(const SpineValue& v, bool* out) {
    *out = v.u.v_int != 0;
    return v.t == SPINE_TYPE_BOOL;
  }
  /** Result. */
  static void To(bool x, SpineValue* out) { SetBool(out, x); }
};
/** str: a view of the argument's bytes. */
template <>
struct Conv<Str> {
  /** Immediate or object string. */
  static bool From(const SpineValue& v, Str* out) {
    if (v.t == SPINE_TYPE_STR) {
      *out = Str::View(v.u.v_str, v.p);
      return true;
    }
    if (v.t != SPINE_TAG_STR_OBJECT) return false;
    int64_t n;
    const char* p = Api().str_data(&v, &n);
    *out = Str::View(p, n);
    return true;
  }
  /** An owned runtime string. */
  static void To(const Str& s, SpineValue* out) {
    if (Api().new_str(s.data(), s.bytes(), out) != 0) Raise(SPINE_FAULT_FALLBACK, "the runtime could not build a str");
  }
};

/** The elements of the list or tuple value @p v (tag @p tag exactly), every one converted. */
template <typename T>
SPINE_CG_OUTLINE bool ReadSequence(const SpineValue& v, int32_t tag, List<T>* out) {
  if (v.t != tag) return false;
  const SpineRuntimeApi& api = Api();
  int64_t n = api.seq_len(&v);
  List<T> l = List<T>::New(n);
  for (int64_t i = 0; i < n; ++i) {
    SpineValue e;
    api.seq_get(&v, i, &e);
    T x;
    if (!Conv<T>::From(e, &x)) return false;
    l.Append(Move(x));
  }
  *out = Move(l);
  return true;
}

/** list. */
template <typename T>
struct Conv<List<T>> {
  /** Every element converted. */
  static bool From(const SpineValue& v, List<T>* out) { return ReadSequence(v, SPINE_TAG_LIST, out); }
  /** A runtime list. */
  SPINE_CG_OUTLINE static void To(const List<T>& l, SpineValue* out) {
    OwnedValue r;
    r.Object(Api().new_list(l.size()), SPINE_TAG_LIST);
    for (int64_t i = 0; i < l.size(); ++i) {
      SpineValue e;
      Conv<T>::To(l.at(i), &e);
      if (Api().list_append(r.v.u.v_pointer, &e) != 0) Raise(SPINE_FAULT_FALLBACK, "the runtime could not build a list");
    }
    r.HandTo(out);
  }
  /** The caller's list @p target gets the items of @p l (a parameter changed in place). */
  SPINE_CG_OUTLINE static void WriteBack(const List<T>& l, const SpineValue& target) {
    SpineValue items;
    To(l, &items);
    if (Api().list_replace(&target, &items) != 0) Raise(SPINE_FAULT_FALLBACK, "the runtime could not change a list");
  }
};

/** The entries of the dict value @p v, every one converted, in order (boxed.h overloads it). */
template <typename K, typename V>
SPINE_CG_OUTLINE bool ReadDict(const SpineValue& v, Dict<K, V>* out) {
  if (v.t != SPINE_TAG_DICT) return false;
  Dict<K, V> d = Dict<K, V>::New();
  int64_t pos = 0;
  SpineValue k, val;
  while (Api().table_next(&v, &pos, &k, &val)) {
    K key;
    V value;
    if (!Conv<K>::From(k, &key) || !Conv<V>::From(val, &value)) return false;
    d.Set(Move(key), Move(value));
  }
  *out = Move(d);
  return true;
}

/** dict. */
template <typename K, typename V>
struct Conv<Dict<K, V>> {
  /** Every entry converted, in order. */
  static bool From(const SpineValue& v, Dict<K, V>* out) { return ReadDict(v, out); }
  /** A runtime dict, in insertion order. */
  SPINE_CG_OUTLINE static void To(const Dict<K, V>& d, SpineValue* out) {
    OwnedValue r;
    r.Object(Api().new_dict(), SPINE_TAG_DICT);
    auto* o = d.obj();
    for (int64_t i = 0; i < o->n_entries; ++i) {
      if (!o->entries[i].live) continue;
      OwnedValue k;
      Conv<K>::To(o->entries[i].key, &k.v);
      SpineValue val;
      Conv<V>::To(o->entries[i].value, &val);
      SpineValue key;
      k.HandTo(&key);
      if (Api().dict_set(r.v.u.v_pointer, &key, &val) != 0) Raise(SPINE_FAULT_FALLBACK, "the runtime could not build a dict");
    }
    r.HandTo(out);
  }
  /** The caller's dict @p target gets the entries of @p d, in order (a parameter changed in place). */
  SPINE_CG_OUTLINE static void WriteBack(const Dict<K, V>& d, const SpineValue& target) {
    SpineValue entries;
    To(d, &entries);
    if (Api().dict_replace(&target, &entries) != 0) Raise(SPINE_FAULT_FALLBACK, "the runtime could not change a dict");
  }
};

/**
 * set: CPython's table slot for slot, both ways (pyset.h), so iteration,
 * pop() and later changes follow CPython's order on either side. A set
 * value without such a table (a runtime set) is read by adding its members.
 */
template <typename T>
struct Conv<Set<T>> {
  /** Every member converted, each in the slot CPython put it in. */
  SPINE_CG_OUTLINE static bool From(const SpineValue& v, Set<T>* out) {
    if (v.t != SPINE_TAG_SET) return false;
    int64_t mask, fill, finger;
    if (Api().set_shape(&v, &mask, &fill, &finger) != 0) {
      Set<T> s = Set<T>::New();
      int64_t pos = 0;
      SpineValue k, unused;
      while (Api().table_next(&v, &pos, &k, &unused)) {
        T x;
        if (!Conv<T>::From(k, &x)) return false;
        s.Add(Move(x));
      }
      *out = Move(s);
      return true;
    }
    Set<T> s = Set<T>::WithTable(mask, fill, 0, finger);
    int64_t used = 0;
    for (int64_t i = 0; i <= mask; ++i) {
      SpineValue k;
      int64_t hash = 0;
      int state = Api().set_slot(&v, i, &k, &hash);
      if (state == 2) s.PlaceDummy(i);
      if (state != 1) continue;
      T x;
      if (!Conv<T>::From(k, &x)) return false;
      if (PyHash<T>::Of(x) != hash) return false;  // never expected: CPython then computes the call
      s.PlaceActive(i, Move(x), hash);
      ++used;
    }
    s.obj()->used = used;
    *out = Move(s);
    return true;
  }
  /** A set object with this table. */
  SPINE_CG_OUTLINE static void To(const Set<T>& s, SpineValue* out) {
    auto* o = s.obj();
    OwnedValue r;
    r.Object(Api().new_set(o->mask, o->finger), SPINE_TAG_SET);
    for (int64_t i = 0; i <= o->mask; ++i) {
      if (o->table[i].state == kUnused) continue;
      SpineValue key;
      __builtin_memset(&key, 0, sizeof(key));
      key.t = SPINE_TYPE_NULL;
      if (o->table[i].state == kActive) Conv<T>::To(o->table[i].key, &key);
      if (Api().set_place(r.v.u.v_pointer, i, &key, o->table[i].hash) != 0) {
        Raise(SPINE_FAULT_FALLBACK, "the runtime could not build a set");
      }
    }
    r.HandTo(out);
  }
  /**
   * The caller's set @p target gets this table, slot for slot (a parameter changed
   * in place): afterwards it iterates, pops and grows as CPython's set would after
   * the same changes. A frozenset argument cannot take it: CPython runs the call.
   */
  SPINE_CG_OUTLINE static void WriteBack(const Set<T>& s, const SpineValue& target) {
    SpineValue members;
    To(s, &members);
    if (Api().set_replace(&target, &members) != 0) Raise(SPINE_FAULT_FALLBACK, "the runtime could not change a set");
  }
};

/** Element-wise conversion of tuples. */
template <typename Tup>
struct TupleItems;
/** End. */
template <>
struct TupleItems<Tuple<>> {
  /** Nothing to read. */
  static bool From(const SpineValue&, int64_t, Tuple<>*) { return true; }
  /** Nothing to write. */
  static void To(const Tuple<>&, OwnedValue*) {}
};
/** Head, then tail. */
template <typename H, typename... R>
struct TupleItems<Tuple<H, R...>> {
  /** Read elements @p i... of the tuple value @p v. */
  static bool From(const SpineValue& v, int64_t i, Tuple<H, R...>* t) {
    SpineValue e;
    Api().seq_get(&v, i, &e);
    return Conv<H>::From(e, &t->head) && TupleItems<Tuple<R...>>::From(v, i + 1, &t->tail);
  }
  /** Write owned values into out[0..]. */
  static void To(const Tuple<H, R...>& t, OwnedValue* out) {
    Conv<H>::To(t.head, &out[0].v);
    TupleItems<Tuple<R...>>::To(t.tail, out + 1);
  }
};

/** tuple. */
template <typename... T>
struct Conv<Tuple<T...>> {
  /** Same length, every element converted. */
  static bool From(const SpineValue& v, Tuple<T...>* out) {
    if (v.t != SPINE_TAG_TUPLE) return false;
    return Api().seq_len(&v) == static_cast<int64_t>(sizeof...(T)) && TupleItems<Tuple<T...>>::From(v, 0, out);
  }
  /** A runtime tuple. */
  SPINE_CG_OUTLINE static void To(const Tuple<T...>& t, SpineValue* out) {
    constexpr int64_t n = sizeof...(T);
    OwnedValue items[n > 0 ? n : 1];
    TupleItems<Tuple<T...>>::To(t, items);
    SpineValue raw[n > 0 ? n : 1];
    for (int64_t i = 0; i < n; ++i) items[i].HandTo(&raw[i]);
    OwnedValue r;
    r.Object(Api().new_tuple(raw, n), SPINE_TAG_TUPLE);
    r.HandTo(out);
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_BOUNDARY_H_
