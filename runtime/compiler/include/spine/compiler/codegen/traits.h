/**
 * @file traits.h
 * @brief Traits<T>: equality, hashing, ordering and repr of every value type
 * generated code handles, so containers and tuples are written once over
 * any element type. Scalars are defined here; each container header adds
 * its own specialisation.
 *
 * Eq/Cmp follow Python (int/bool/str/tuple/list); Repr writes CPython's
 * repr for error messages and returns false where it cannot be exact, in
 * which case the caller falls back to CPython for the message.
 */
#ifndef SPINE_COMPILER_CODEGEN_TRAITS_H_
#define SPINE_COMPILER_CODEGEN_TRAITS_H_

#include "spine/compiler/codegen/core.h"

namespace spine_cg {

/** Primary template: specialised per value type. */
template <typename T>
struct Traits;

/** Mix 64 bits (splitmix64's finaliser): dict/set hashing of native keys. */
inline uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/** int. */
template <>
struct Traits<int64_t> {
  static bool Eq(int64_t a, int64_t b) { return a == b; }                 /**< a == b. */
  static int Cmp(int64_t a, int64_t b) { return a < b ? -1 : a > b; }      /**< Three-way. */
  static uint64_t Hash(int64_t a) { return Mix(static_cast<uint64_t>(a)); } /**< Hash. */
  /** repr. */
  static bool Repr(FaultText& out, int64_t a) {
    out.Add(a);
    return true;
  }
};

/** bool. */
template <>
struct Traits<bool> {
  static bool Eq(bool a, bool b) { return a == b; }                  /**< a == b. */
  static int Cmp(bool a, bool b) { return int(a) - int(b); }         /**< Three-way. */
  static uint64_t Hash(bool a) { return Mix(a ? 1 : 0); }            /**< Hash. */
  /** repr. */
  static bool Repr(FaultText& out, bool a) {
    out.Add(a ? "True" : "False");
    return true;
  }
};

/**
 * float. Never a dict key or set member and never compared inside a
 * container (the frontend refuses: CPython compares container elements by
 * identity first, which NaN makes observable); only ordering for sort/min/max.
 */
template <>
struct Traits<double> {
  static bool Eq(double a, double b) { return a == b; }              /**< a == b. */
  static int Cmp(double a, double b) { return a < b ? -1 : a > b; }  /**< Three-way (no NaN). */
  /** repr: not reproduced natively. */
  static bool Repr(FaultText&, double) { return false; }
};

/** Class instances: Python's default equality is identity. */
template <typename T>
struct Traits<Ref<T>> {
  static bool Eq(const Ref<T>& a, const Ref<T>& b) { return a.get() == b.get(); }  /**< a is b. */
};

/**
 * A key looked up in an empty table: native keys need no hash then, but a
 * boxed key is hashed anyway, as CPython does (its TypeError for an
 * unhashable key shows even there; boxed.h).
 */
template <typename K>
struct HashOfAbsent {
  /** Nothing to check. */
  static void Check(const K&) {}
};

/**
 * Scalar value types. A sort's comparison and a dict's or set's insertion of
 * a new key stay inline for them; for strings, tuples and containers each is
 * one out-of-line function per type (SPINE_CG_OUTLINE): inlined at every use,
 * g++ -O3 spent most of the compile time of a module that sorts tuples or
 * strings or fills a dict[str, ...] on them (a third to a half of it), and a
 * call costs little beside comparing strings or hashing a new key. A lookup
 * by a str key is one function per module (table.h, FindStrEntry), a sort of
 * anything but scalars too (list.h, SortRelocating).
 */
template <typename T>
struct IsScalar {
  static constexpr bool value = false;  /**< Strings, tuples, containers, instances. */
};
template <>
struct IsScalar<int64_t> {
  static constexpr bool value = true;  /**< int. */
};
template <>
struct IsScalar<double> {
  static constexpr bool value = true;  /**< float. */
};
template <>
struct IsScalar<bool> {
  static constexpr bool value = true;  /**< bool. */
};

/**
 * Whether Traits<T>::Cmp answers 0 exactly when Traits<T>::Eq answers true, so a tuple's
 * comparison asks Cmp alone for its first unequal element (Python asks == first, then <):
 * ints, bools and str (byte equality, byte order). Not floats (a NaN is unequal to itself
 * yet neither less nor greater) nor containers and instances.
 */
template <typename T>
struct CmpDecidesEq {
  static constexpr bool value = false;  /**< Eq first, then Cmp. */
};
template <>
struct CmpDecidesEq<int64_t> {
  static constexpr bool value = true;  /**< int. */
};
template <>
struct CmpDecidesEq<bool> {
  static constexpr bool value = true;  /**< bool. */
};

/**
 * One step of Python's comparison of sequences: false when @p a == @p b (the next
 * elements decide), else true with their order (Cmp) in *@p order. Asks Cmp alone
 * where it decides equality too (half the code of a sort's tuple comparison).
 */
template <typename T>
inline bool ElementOrder(const T& a, const T& b, int* order) {
  if constexpr (CmpDecidesEq<T>::value) {
    *order = Traits<T>::Cmp(a, b);
    return *order != 0;
  }
  if (Traits<T>::Eq(a, b)) return false;
  *order = Traits<T>::Cmp(a, b);
  return true;
}

/** Python's `a < b` through Traits. */
template <typename T>
inline bool Less(const T& a, const T& b) {
  return Traits<T>::Cmp(a, b) < 0;
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_TRAITS_H_
