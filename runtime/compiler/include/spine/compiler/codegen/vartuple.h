/**
 * @file vartuple.h
 * @brief Native tuple[T, ...] (a tuple of any length): a List<T> nobody
 * changes. Every list read applies to it as it is (the frontend never
 * mutates one); what differs is spelled here: IndexError's message, hashing
 * and repr (it may be a dict key or set member), and the boundary, where it
 * is a Python tuple (a list passed for it is a type mismatch, so the call
 * runs in CPython, as for fixed-length tuples).
 */
#ifndef SPINE_COMPILER_CODEGEN_VARTUPLE_H_
#define SPINE_COMPILER_CODEGEN_VARTUPLE_H_

#include "spine/compiler/codegen/boundary.h"

namespace spine_cg {

/** @brief tuple[T, ...]: a List<T> that is never changed after it is built. */
template <typename T>
class VarTuple : public List<T> {
 public:
  /** Unset (a variable before its first assignment). */
  VarTuple() noexcept = default;
  /** The items of a list built for it (a display, a slice, a concatenation): implicit on purpose. */
  VarTuple(const List<T>& l) : List<T>(l) {}  // NOLINT(google-explicit-constructor)
  /** A new empty tuple being built, with room for @p cap elements. */
  static VarTuple New(int64_t cap = 0) { return VarTuple(List<T>::New(cap)); }
};

/** t[i] with Python's negative indices; IndexError("tuple index out of range"). */
template <typename T>
inline T tuple_getitem(const List<T>& t, int64_t i) {
  return t.at(CheckIndex(i, t.size(), "tuple index out of range"));
}

/** tuple[T, ...]: a list's equality and order; hashed and written as a tuple. */
template <typename T>
struct Traits<VarTuple<T>> {
  /** Element-wise equality. */
  static bool Eq(const VarTuple<T>& a, const VarTuple<T>& b) { return Traits<List<T>>::Eq(a, b); }
  /** Lexicographic order. */
  static int Cmp(const VarTuple<T>& a, const VarTuple<T>& b) { return Traits<List<T>>::Cmp(a, b); }
  /** Hash combining the elements in order (only native tables use it). */
  static uint64_t Hash(const VarTuple<T>& t) {
    uint64_t h = 0x345678;
    for (int64_t i = 0; i < t.size(); ++i) h = Mix(h * 31 + Traits<T>::Hash(t.at(i)));
    return Mix(h + static_cast<uint64_t>(t.size()));
  }
  /** repr: "()", "(x,)", "(x, y)". */
  static bool Repr(FaultText& out, const VarTuple<T>& t) {
    out.Add("(");
    for (int64_t i = 0; i < t.size(); ++i) {
      if (i) out.Add(", ");
      if (!Traits<T>::Repr(out, t.at(i))) return false;
    }
    out.Add(t.size() == 1 ? ",)" : ")");
    return true;
  }
};

/** tuple[T, ...] as a set member: CPython's tuplehash, as for fixed-length tuples (pyset.h). */
template <typename T>
struct PyHash<VarTuple<T>> {
  /** hash(t). */
  static int64_t Of(const VarTuple<T>& t) {
    TupleHash acc;
    for (int64_t i = 0; i < t.size(); ++i) acc.Add(PyHash<T>::Of(t.at(i)));
    return acc.Done(static_cast<uint64_t>(t.size()));
  }
};

/** Owned element values of a tuple being built; released unless handed over. */
struct TupleItemsBuffer {
  SpineValue* raw;   /**< The values. */
  int64_t done = 0;  /**< How many are set. */
  /** Room for @p n values. */
  explicit TupleItemsBuffer(int64_t n) : raw(static_cast<SpineValue*>(Alloc(sizeof(SpineValue) * (n > 0 ? n : 1)))) {}
  TupleItemsBuffer(const TupleItemsBuffer&) = delete;             /**< Not copyable. */
  TupleItemsBuffer& operator=(const TupleItemsBuffer&) = delete;  /**< Not assignable. */
  ~TupleItemsBuffer() {
    for (int64_t i = 0; i < done; ++i) Api().release(&raw[i]);
    Free(raw);
  }
};

/** tuple[T, ...] across the boundary: a Python tuple only. */
template <typename T>
struct Conv<VarTuple<T>> {
  /** Every element converted. */
  static bool From(const SpineValue& v, VarTuple<T>* out) { return ReadSequence(v, SPINE_TAG_TUPLE, out); }
  /** A runtime tuple. */
  SPINE_CG_OUTLINE static void To(const VarTuple<T>& t, SpineValue* out) {
    int64_t n = t.size();
    TupleItemsBuffer items(n);
    for (; items.done < n; ++items.done) Conv<T>::To(t.at(items.done), &items.raw[items.done]);
    items.done = 0;  // new_tuple owns them now, even when it fails
    OwnedValue r;
    r.Object(Api().new_tuple(items.raw, n), SPINE_TAG_TUPLE);
    r.HandTo(out);
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_VARTUPLE_H_
