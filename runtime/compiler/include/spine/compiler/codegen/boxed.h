/**
 * @file boxed.h
 * @brief Boxed values: `Any`, `object`, `Union[A, B]` and the elements of a
 * bare `list`/`dict`. A Box is a strong reference to the CPython object
 * itself, and every operation on it is CPython's own, run through the call's
 * SpineRuntimeApi::boxed (the Python binding's abstract object API), so its
 * meaning, results and exceptions are CPython's by construction. An exception
 * it raises stays set in the interpreter and unwinds native code as a
 * SPINE_FAULT_PYTHON fault; the binding raises it as it is.
 *
 * Without CPython (the loader's own table has no `boxed`) a function with a
 * boxed parameter reports a type mismatch, and any other boxed operation a
 * SPINE_FAULT_TYPE fault: such functions run for CPython callers only.
 */
#ifndef SPINE_COMPILER_CODEGEN_BOXED_H_
#define SPINE_COMPILER_CODEGEN_BOXED_H_

#include "spine/compiler/codegen/boundary.h"

namespace spine_cg {

/** A value tagged as a borrowed object operand. */
inline SpineValue ObjectValue(void* o) {
  SpineValue v;
  v.u.v_pointer = o;
  v.p = 0;
  v.t = SPINE_TAG_PYOBJECT;
  return v;
}

/** An int operand (an operator code, an index). */
inline SpineValue IntValue(int64_t x) {
  SpineValue v;
  SetInt(&v, x);
  return v;
}

/** Boxed operation @p op; a Python exception unwinds as SPINE_FAULT_PYTHON. Returns its count. */
SPINE_CG_OUTLINE inline int BoxCall(int32_t op, SpineValue* args, int32_t n, SpineValue* out) {
  auto fn = Api().boxed;
  if (fn == nullptr) Raise(SPINE_FAULT_TYPE, "boxed values (Any, object, bare list/dict) need a CPython caller");
  int rc = fn(op, args, n, out);
  if (rc < 0) Raise(SPINE_FAULT_PYTHON, "a Python exception");
  return rc;
}

/** @brief A strong reference to a Python object (null only before its first assignment). */
class Box {
 public:
  Box() noexcept = default;
  Box(const Box& o) : o_(o.o_) {  // NOLINT: shared, as Python names
    if (o_) Incref(o_);
  }
  Box(Box&& o) noexcept : o_(o.o_) { o.o_ = nullptr; }
  Box& operator=(const Box& o) {
    void* p = o.o_;
    if (p) Incref(p);
    Drop();
    o_ = p;
    return *this;
  }
  Box& operator=(Box&& o) noexcept {
    if (this != &o) {
      void* p = o.o_;
      o.o_ = nullptr;
      Drop();
      o_ = p;
    }
    return *this;
  }
  ~Box() { Drop(); }
  /** Adopt the object of @p v (a new reference). */
  static Box Adopt(const SpineValue& v) {
    Box b;
    b.o_ = v.u.v_pointer;
    return b;
  }
  /** The object. */
  void* get() const noexcept { return o_; }
  /** The object as a borrowed operand. */
  SpineValue value() const { return ObjectValue(o_); }
  /** Give up the reference. */
  void* Release() noexcept {
    void* p = o_;
    o_ = nullptr;
    return p;
  }

 private:
  static void Incref(void* p) {
    SpineValue v = ObjectValue(p);
    BoxCall(SPINE_BOX_INCREF, &v, 1, &v);
  }
  void Drop() noexcept {
    if (o_ == nullptr) return;
    SpineValue v = ObjectValue(o_);
    o_ = nullptr;
    Api().boxed(SPINE_BOX_DECREF, &v, 1, &v);  // a Box exists only where boxed does
  }
  void* o_ = nullptr;
};

/** The result object of operation @p op on @p args. */
inline Box BoxResult(int32_t op, SpineValue* args, int32_t n) {
  SpineValue out;
  BoxCall(op, args, n, &out);
  return Box::Adopt(out);
}

/** The scalar result (int or bool) of operation @p op on @p args. */
inline int64_t ScalarResult(int32_t op, SpineValue* args, int32_t n) {
  SpineValue out;
  BoxCall(op, args, n, &out);
  return out.u.v_int;
}

/** x as a Python object (the same object for a Box; a str literal is the module's constant object). */
template <typename T>
SPINE_CG_OUTLINE Box box_of(const T& x) {
  SpineValue v;
  Conv<T>::To(x, &v);
  return BoxResult(SPINE_BOX_FROM, &v, 1);
}
/** A Box is boxed already. */
inline Box box_of(const Box& b) { return b; }

/** None. */
inline Box box_none() {
  SpineValue v;
  __builtin_memset(&v, 0, sizeof(v));
  v.t = SPINE_TYPE_NULL;
  return BoxResult(SPINE_BOX_FROM, &v, 1);
}

/** The borrowed view of @p b, as an argument of its type would be read. */
inline SpineValue ViewOf(const Box& b) {
  SpineValue arg = b.value(), view;
  BoxCall(SPINE_BOX_VIEW, &arg, 1, &view);
  return view;
}

/**
 * @p b read as a T where native code needs one (an annotated variable, range(x),
 * a typed parameter): its exact type only, an int within int64, as arguments are
 * read; anything else goes back to CPython, which computes the call with it.
 */
template <typename T>
SPINE_CG_OUTLINE T Unbox(const Box& b) {
  SpineValue view = ViewOf(b);
  T x;
  if (!Conv<T>::From(view, &x)) Raise(SPINE_FAULT_FALLBACK, "a boxed value of another type than native code needs");
  return x;
}
/** A str is copied: the box may be the only owner of the text. */
template <>
SPINE_CG_OUTLINE inline Str Unbox<Str>(const Box& b) {
  SpineValue view = ViewOf(b);
  Str x;
  if (!Conv<Str>::From(view, &x)) Raise(SPINE_FAULT_FALLBACK, "a boxed value of another type than native code needs");
  return Str::Copy(x.data(), x.bytes());
}

/** The text of the str object @p s (copied). */
inline Str TextOf(const Box& s) { return Unbox<Str>(s); }

/** a OP b (SpineBoxBinary). */
inline Box box_binary(int64_t code, const Box& a, const Box& b) {
  SpineValue args[3] = {IntValue(code), a.value(), b.value()};
  return BoxResult(SPINE_BOX_BINARY, args, 3);
}
/** -a, +a, ~a, abs(a) (code 0..3). */
inline Box box_unary(int64_t code, const Box& a) {
  SpineValue args[2] = {IntValue(code), a.value()};
  return BoxResult(SPINE_BOX_UNARY, args, 2);
}
/** bool(a OP b) for a rich comparison (Py_LT 0 .. Py_GE 5). */
inline bool box_compare(int64_t code, const Box& a, const Box& b) {
  SpineValue args[3] = {IntValue(code), a.value(), b.value()};
  return ScalarResult(SPINE_BOX_COMPARE, args, 3) != 0;
}
/** bool(a). */
inline bool box_truth(const Box& a) {
  SpineValue v = a.value();
  return ScalarResult(SPINE_BOX_TRUTH, &v, 1) != 0;
}
/** str(a). */
inline Str box_str(const Box& a) {
  SpineValue v = a.value();
  return TextOf(BoxResult(SPINE_BOX_STR, &v, 1));
}
/** repr(a). */
inline Str box_repr(const Box& a) {
  SpineValue v = a.value();
  return TextOf(BoxResult(SPINE_BOX_REPR, &v, 1));
}
/** format(a, spec): an f-string field. */
inline Str box_format(const Box& a, const Box& spec) {
  SpineValue args[2] = {a.value(), spec.value()};
  return TextOf(BoxResult(SPINE_BOX_FORMAT, args, 2));
}
/** len(a). */
inline int64_t box_len(const Box& a) {
  SpineValue v = a.value();
  return ScalarResult(SPINE_BOX_LEN, &v, 1);
}
/** a[k]. */
inline Box box_getitem(const Box& a, const Box& k) {
  SpineValue args[2] = {a.value(), k.value()};
  return BoxResult(SPINE_BOX_GETITEM, args, 2);
}
/** a[k] = v (changes the caller's own object, as CPython does). */
inline bool box_setitem(const Box& a, const Box& k, const Box& v) {
  SpineValue args[3] = {a.value(), k.value(), v.value()};
  SpineValue out;
  BoxCall(SPINE_BOX_SETITEM, args, 3, &out);
  return true;
}
/** x in a. */
inline bool box_contains(const Box& a, const Box& x) {
  SpineValue args[2] = {a.value(), x.value()};
  return ScalarResult(SPINE_BOX_CONTAINS, args, 2) != 0;
}
/** a is b. */
inline bool box_is(const Box& a, const Box& b) { return a.get() == b.get(); }
/** isinstance(a, the builtin class @p code) (SpineBoxClass). */
inline bool box_isinstance(const Box& a, int64_t code) {
  SpineValue args[2] = {a.value(), IntValue(code)};
  return ScalarResult(SPINE_BOX_ISINSTANCE, args, 2) != 0;
}
/** int(a). */
inline Box box_int(const Box& a) {
  SpineValue v = a.value();
  return BoxResult(SPINE_BOX_INT, &v, 1);
}
/** float(a). */
inline Box box_float(const Box& a) {
  SpineValue v = a.value();
  return BoxResult(SPINE_BOX_FLOAT, &v, 1);
}
/** A str operand (a name, a message): borrowed text. */
inline SpineValue TextValue(const Str& s) {
  SpineValue v;
  v.u.v_str = const_cast<char*>(s.data());
  v.p = static_cast<int32_t>(s.bytes());
  v.t = SPINE_TYPE_STR;
  return v;
}
/** self.name(args...), looked up and called by CPython. */
template <typename... A>
inline Box box_method(const Str& name, const Box& self, const A&... args) {
  SpineValue values[2 + sizeof...(A)] = {TextValue(name), self.value(), args.value()...};
  return BoxResult(SPINE_BOX_METHOD, values, static_cast<int32_t>(2 + sizeof...(A)));
}
/**
 * print()'s whole text (its values, separators and end): kept with the output of
 * the native call in progress and written to sys.stdout when that call returns,
 * so a call that faults and lets CPython run the function from the start has
 * printed nothing. Output past SPINE_PRINT_BOUND goes back to CPython, which streams it.
 */
inline bool box_print(const Str& text) {
  if (Api().boxed == nullptr) Raise(SPINE_FAULT_TYPE, "print() needs a CPython caller (its sys.stdout)");
  if (text.bytes() > SPINE_PRINT_BOUND) Raise(SPINE_FAULT_FALLBACK, "printed output beyond the native bound");
  SpineValue v = TextValue(text), out;
  if (BoxCall(SPINE_BOX_PRINT, &v, 1, &out) != 0) Raise(SPINE_FAULT_FALLBACK, "printed output beyond the native bound");
  return true;
}
/** a.name. */
inline Box box_getattr(const Box& a, const Str& name) {
  SpineValue args[2] = {a.value(), TextValue(name)};
  return BoxResult(SPINE_BOX_GETATTR, args, 2);
}

/**
 * @brief While a handler runs (or a finally on an exception's way out), the
 * exception it took is the one being handled, as in CPython: sys.exc_info()
 * shows it and what is raised meanwhile gets it as __context__. The one
 * handled before is back when the handler is left, by any path.
 */
class Handling {
 public:
  Handling() = default;
  Handling(const Handling&) = delete;
  Handling& operator=(const Handling&) = delete;
  /** Handle @p e (nothing for no exception). */
  void Enter(const Box& e) {
    if (e.get() == nullptr) return;
    SpineValue v = e.value(), out;
    BoxCall(SPINE_BOX_EXC_HANDLING, &v, 1, &out);
    previous_ = Box::Adopt(out);
  }
  ~Handling() {
    if (previous_.get() == nullptr) return;
    SpineValue v = previous_.value(), out;
    if (Api().boxed(SPINE_BOX_EXC_HANDLING, &v, 1, &out) == 0) Box::Adopt(out);  // the handled one, dropped
  }

 private:
  Box previous_;  /**< What was handled before (None for nothing); set once entered. */
};

/**
 * The exception object of the fault @p f an `except` clause took: for a boxed
 * operation's, the one set in the interpreter (taken, so none is pending while
 * the handler runs); for a native fault, the exception CPython would have
 * raised. One not built exactly (a KeyError whose key repr is no literal) lets
 * CPython run the call.
 */
SPINE_CG_OUTLINE inline Box CaughtObject(const Fault& f) {
  SpineValue out;
  if (f.kind == SPINE_FAULT_PYTHON) {
    BoxCall(SPINE_BOX_EXC_TAKE, &out, 0, &out);
    return Box::Adopt(out);
  }
  if (f.called) Raise(SPINE_FAULT_FALLBACK, "an exception called with arguments native code cannot build");
  Str text = Str::Copy(f.Text(), static_cast<int64_t>(__builtin_strlen(f.Text())));
  SpineValue args[2] = {IntValue(f.kind), TextValue(text)};
  if (BoxCall(SPINE_BOX_EXC_NEW, args, 2, &out) != 1) {
    Raise(SPINE_FAULT_FALLBACK, "an exception native code cannot build");
  }
  return Box::Adopt(out);
}

/** CaughtObject(@p f), handled by @p h while the handler runs. */
inline Box CaughtObject(const Fault& f, Handling& h) {
  Box e = CaughtObject(f);
  h.Enter(e);
  return e;
}

/** The exception a `finally` keeps while it runs: a boxed operation's, taken; none for a native fault. */
inline Box ParkedObject(const Fault& f) { return f.kind == SPINE_FAULT_PYTHON ? CaughtObject(f) : Box(); }

/** Go on unwinding with fault @p f; a boxed operation's exception @p e is set again first. */
[[noreturn]] SPINE_CG_OUTLINE inline void Rethrow(const Fault& f, const Box& e) {
  if (f.kind == SPINE_FAULT_PYTHON && e.get() != nullptr) {
    SpineValue v = e.value();
    BoxCall(SPINE_BOX_EXC_RESTORE, &v, 1, &v);  // returns -1: raises the PYTHON fault
  }
  throw f;
}

/** Does exception @p e match the builtin exception class @p name (CPython's `except name:` test)? */
inline bool box_exc_match(const Box& e, const Str& name) {
  SpineValue args[2] = {e.value(), TextValue(name)};
  return ScalarResult(SPINE_BOX_EXC_MATCH, args, 2) != 0;
}

/** The elements of the list or tuple value @p v as boxes: the caller's own objects. */
template <>
SPINE_CG_OUTLINE inline bool ReadSequence<Box>(const SpineValue& v, int32_t tag, List<Box>* out) {
  if (v.t != tag || Api().boxed == nullptr) return false;
  int64_t n = Api().seq_len(&v);
  List<Box> l = List<Box>::New(n);
  for (int64_t i = 0; i < n; ++i) {
    SpineValue args[2] = {v, IntValue(i)};
    l.Append(BoxResult(SPINE_BOX_SEQ_ITEM, args, 2));
  }
  *out = Move(l);
  return true;
}

/** list(a): what a for loop over a boxed value iterates. */
inline List<Box> box_list(const Box& a) {
  SpineValue v = a.value();
  Box l = BoxResult(SPINE_BOX_LIST, &v, 1);
  List<Box> out;
  ReadSequence<Box>(ViewOf(l), SPINE_TAG_LIST, &out);
  return out;
}

/** One side of a dict entry: a typed key or value is read from its view, as arguments are. */
template <typename T>
struct EntryPart {
  static constexpr int kView = 1;  /**< Ask for a borrowed view. */
  /** Convert the view. */
  static bool Take(const SpineValue& v, T* out) { return Conv<T>::From(v, out); }
};
/** A boxed side is the object itself (a new reference, adopted). */
template <>
struct EntryPart<Box> {
  static constexpr int kView = 0;  /**< Ask for the object. */
  /** Adopt it. */
  static bool Take(const SpineValue& v, Box* out) {
    *out = Box::Adopt(v);
    return true;
  }
};

/** The entries of a dict value holding boxed keys or values: the caller's own objects, in order. */
template <typename K, typename V>
SPINE_CG_OUTLINE bool ReadBoxedDict(const SpineValue& v, Dict<K, V>* out) {
  if (v.t != SPINE_TAG_DICT || Api().boxed == nullptr) return false;
  Dict<K, V> d = Dict<K, V>::New();
  SpineValue args[3] = {v, IntValue(0), IntValue(EntryPart<K>::kView | EntryPart<V>::kView << 1)};
  SpineValue entry[2];
  while (BoxCall(SPINE_BOX_DICT_NEXT, args, 3, entry) == 1) {
    K key;
    V value;
    bool key_ok = EntryPart<K>::Take(entry[0], &key);  // both taken first: a boxed side is owned
    bool value_ok = EntryPart<V>::Take(entry[1], &value);
    if (!key_ok || !value_ok) return false;
    d.Set(Move(key), Move(value));
  }
  *out = Move(d);
  return true;
}
/** dict[K, object]. */
template <typename K>
bool ReadDict(const SpineValue& v, Dict<K, Box>* out) { return ReadBoxedDict(v, out); }
/** dict[object, V]. */
template <typename V>
bool ReadDict(const SpineValue& v, Dict<Box, V>* out) { return ReadBoxedDict(v, out); }
/** dict[object, object]. */
inline bool ReadDict(const SpineValue& v, Dict<Box, Box>* out) { return ReadBoxedDict(v, out); }

/** A boxed value across the boundary: the caller's very object, both ways. */
template <>
struct Conv<Box> {
  /** The object behind argument @p v (only arguments and container or str objects have one). */
  static bool From(const SpineValue& v, Box* out) {
    if (Api().boxed == nullptr) return false;
    SpineValue arg;
    arg.u.v_pointer = const_cast<SpineValue*>(&v);
    arg.p = 0;
    arg.t = SPINE_TYPE_POINTER;
    SpineValue o;
    if (BoxCall(SPINE_BOX_ARG, &arg, 1, &o) != 1) return false;
    *out = Box::Adopt(o);
    return true;
  }
  /** The object itself (a new reference). */
  static void To(const Box& b, SpineValue* out) {
    Box mine(b);
    *out = ObjectValue(mine.Release());
  }
};

/** A boxed head of a tuple: the caller's own object. */
template <typename... R>
struct TupleItems<Tuple<Box, R...>> {
  /** Read elements @p i... of the tuple value @p v. */
  static bool From(const SpineValue& v, int64_t i, Tuple<Box, R...>* t) {
    if (Api().boxed == nullptr) return false;
    SpineValue args[2] = {v, IntValue(i)};
    t->head = BoxResult(SPINE_BOX_SEQ_ITEM, args, 2);
    return TupleItems<Tuple<R...>>::From(v, i + 1, &t->tail);
  }
  /** Write owned values into out[0..]. */
  static void To(const Tuple<Box, R...>& t, OwnedValue* out) {
    Conv<Box>::To(t.head, &out[0].v);
    TupleItems<Tuple<R...>>::To(t.tail, out + 1);
  }
};

/** Boxed values compare as CPython's containers compare their elements: identity, then ==. */
template <>
struct Traits<Box> {
  /** a is b or a == b. */
  static bool Eq(const Box& a, const Box& b) {
    SpineValue args[2] = {a.value(), b.value()};
    return ScalarResult(SPINE_BOX_EQUAL, args, 2) != 0;
  }
  /** Three-way through `<` (what sorting and min/max use). */
  static int Cmp(const Box& a, const Box& b) {
    if (box_compare(0, a, b)) return -1;
    return box_compare(0, b, a) ? 1 : 0;
  }
  /** hash(a), CPython's (TypeError for an unhashable value, as CPython raises it). */
  static uint64_t Hash(const Box& a) {
    SpineValue v = a.value();
    return static_cast<uint64_t>(ScalarResult(SPINE_BOX_HASH, &v, 1));
  }
  /** repr(a). */
  static bool Repr(FaultText& out, const Box& a) {
    Str r = box_repr(a);
    out.Add(r.data(), r.bytes());
    return true;
  }
};

/** A boxed key is hashed even when the table is empty: an unhashable one raises, as in CPython. */
template <>
struct HashOfAbsent<Box> {
  /** hash(key), for its exception. */
  static void Check(const Box& key) { Traits<Box>::Hash(key); }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_BOXED_H_
