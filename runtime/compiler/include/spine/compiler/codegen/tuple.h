/**
 * @file tuple.h
 * @brief Native tuple[A, B, ...]: an immutable value type, stored inline
 * (head, tail) so element i is a fixed member path the generator writes out
 * (`t.tail.head`); braced construction evaluates elements left to right.
 * Also the projections dict iteration uses (keys, values, items).
 */
#ifndef SPINE_COMPILER_CODEGEN_TUPLE_H_
#define SPINE_COMPILER_CODEGEN_TUPLE_H_

#include "spine/compiler/codegen/table.h"

namespace spine_cg {

/** Primary template. */
template <typename... T>
struct Tuple;

/** @brief The empty tuple (also the end of every tuple). */
template <>
struct Tuple<> {};

/** @brief A non-empty tuple. */
template <typename H, typename... R>
struct Tuple<H, R...> {
  H head;            /**< Element 0. */
  Tuple<R...> tail;  /**< Elements 1... */
};

/** (). */
template <>
struct Traits<Tuple<>> {
  static bool Eq(const Tuple<>&, const Tuple<>&) { return true; }  /**< Equal. */
  static int Cmp(const Tuple<>&, const Tuple<>&) { return 0; }     /**< Equal. */
  static uint64_t Hash(const Tuple<>&) { return 0x345678; }         /**< Seed. */
  /** Elements after the first: none. */
  static bool ReprRest(FaultText&, const Tuple<>&) { return true; }
  /** repr. */
  static bool Repr(FaultText& out, const Tuple<>&) {
    out.Add("()");
    return true;
  }
};

/** tuple: element-wise, as CPython's tuple comparison. */
/** A tuple of such elements compares as its elements do (traits.h). */
template <typename... T>
struct CmpDecidesEq<Tuple<T...>> {
  static constexpr bool value = (CmpDecidesEq<T>::value && ...);  /**< Every element's Cmp decides. */
};

template <typename H, typename... R>
struct Traits<Tuple<H, R...>> {
  /** Equality. */
  static bool Eq(const Tuple<H, R...>& a, const Tuple<H, R...>& b) {
    return Traits<H>::Eq(a.head, b.head) && Traits<Tuple<R...>>::Eq(a.tail, b.tail);
  }
  /** The first unequal elements decide. */
  static int Cmp(const Tuple<H, R...>& a, const Tuple<H, R...>& b) {
    int order;
    if (ElementOrder(a.head, b.head, &order)) return order;
    return Traits<Tuple<R...>>::Cmp(a.tail, b.tail);
  }
  /** Hash combining the elements. */
  static uint64_t Hash(const Tuple<H, R...>& t) {
    return Mix(Traits<H>::Hash(t.head) * 31 + Traits<Tuple<R...>>::Hash(t.tail));
  }
  /** ", x, y" for the elements after the first. */
  static bool ReprRest(FaultText& out, const Tuple<H, R...>& t) {
    out.Add(", ");
    return Traits<H>::Repr(out, t.head) && Traits<Tuple<R...>>::ReprRest(out, t.tail);
  }
  /** repr: "(x,)" or "(x, y)". */
  static bool Repr(FaultText& out, const Tuple<H, R...>& t) {
    out.Add("(");
    if (!Traits<H>::Repr(out, t.head)) return false;
    if (sizeof...(R) == 0) {
      out.Add(",");
    } else if (!Traits<Tuple<R...>>::ReprRest(out, t.tail)) {
      return false;
    }
    out.Add(")");
    return true;
  }
};

/** Dict iteration projection: keys. */
struct KeysOf {
  /** Item type. */
  template <typename K, typename V>
  using Item = K;
  /** The key. */
  template <typename E>
  static auto Get(const E& e) {
    return e.key;
  }
};
/** Dict iteration projection: values. */
struct ValuesOf {
  /** Item type. */
  template <typename K, typename V>
  using Item = V;
  /** The value. */
  template <typename E>
  static auto Get(const E& e) {
    return e.value;
  }
};
/** Dict iteration projection: (key, value). */
struct ItemsOf {
  /** Item type. */
  template <typename K, typename V>
  using Item = Tuple<K, V>;
  /** The pair. */
  template <typename E>
  static auto Get(const E& e) {
    return Tuple<decltype(e.key), decltype(e.value)>{e.key, {e.value, {}}};
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_TUPLE_H_
