/**
 * @file optional.h
 * @brief Native Optional[T] of a value type: a flag beside an unboxed value,
 * so `Optional[int]` needs no allocation. Using the value of a None is never
 * reproduced natively: `opt_value` hands the call back to CPython, which
 * raises its own exception (`unsupported operand type(s) for +: 'NoneType'
 * and 'int'`, ...) with its own message. At the boundary None is the value
 * tagged SPINE_TYPE_NULL (an argument native code cannot represent is never
 * tagged so; see python_api.cc's ViewPy).
 */
#ifndef SPINE_COMPILER_CODEGEN_OPTIONAL_H_
#define SPINE_COMPILER_CODEGEN_OPTIONAL_H_

#include "spine/compiler/codegen/boundary.h"

namespace spine_cg {

/** @brief None (has == false) or a value. Default-constructed: None. */
template <typename T>
struct Opt {
  bool has = false;  /**< Not None. */
  T value{};         /**< Meaningful only when has. */
  /** A present value. */
  static Opt Some(T v) {
    Opt o;
    o.has = true;
    o.value = Move(v);
    return o;
  }
};

/** The value of @p o; None goes back to CPython (which raises what it raises for None there). */
template <typename T>
inline const T& opt_value(const Opt<T>& o) {
  if (__builtin_expect(!o.has, 0)) Raise(SPINE_FAULT_FALLBACK, "None where a value is needed");
  return o.value;
}

/** Optional: None equals only None, as in Python (None == None; None != 0). */
template <typename T>
struct Traits<Opt<T>> {
  /** Equality. */
  static bool Eq(const Opt<T>& a, const Opt<T>& b) {
    if (!a.has || !b.has) return a.has == b.has;
    return Traits<T>::Eq(a.value, b.value);
  }
  /** repr: "None" or the value's. */
  static bool Repr(FaultText& out, const Opt<T>& a) {
    if (!a.has) {
      out.Add("None");
      return true;
    }
    return Traits<T>::Repr(out, a.value);
  }
};

/** Optional across the boundary: None is SPINE_TYPE_NULL. */
template <typename T>
struct Conv<Opt<T>> {
  /** None, or a value of T's exact type. */
  static bool From(const SpineValue& v, Opt<T>* out) {
    if (v.t == SPINE_TYPE_NULL) {
      *out = Opt<T>{};
      return true;
    }
    out->has = true;
    return Conv<T>::From(v, &out->value);
  }
  /** None or the value. */
  static void To(const Opt<T>& o, SpineValue* out) {
    if (o.has) return Conv<T>::To(o.value, out);
    __builtin_memset(out, 0, sizeof(*out));
    out->t = SPINE_TYPE_NULL;
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_OPTIONAL_H_
