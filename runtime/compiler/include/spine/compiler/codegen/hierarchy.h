/**
 * @file hierarchy.h
 * @brief Class references as a whole: None (the null Ref), casts within a
 * single-inheritance hierarchy, and the class-id tests isinstance and
 * method dispatch use. A class of a hierarchy has `int64_t tid` (set by the
 * most derived constructor) and `kTid`/`kTidEnd`: ids are given in
 * preorder, so a class's subclasses are exactly the ids in [kTid, kTidEnd].
 */
#ifndef SPINE_COMPILER_CODEGEN_HIERARCHY_H_
#define SPINE_COMPILER_CODEGEN_HIERARCHY_H_

#include "spine/compiler/codegen/core.h"

namespace spine_cg {

/** The instance behind @p r; None has no attributes: CPython raises its AttributeError. */
template <typename T>
inline T* Deref(const Ref<T>& r) {
  T* p = r.get();
  if (__builtin_expect(p == nullptr, 0)) Raise(SPINE_FAULT_FALLBACK, "'NoneType' object has no attribute");
  return p;
}

/** @p r seen as a T (a base, or a subclass the caller has proved it is); the object is shared. */
template <typename T, typename U>
inline Ref<T> RefCast(const Ref<U>& r) {
  T* p = static_cast<T*>(r.get());
  if (p) ++p->rc;
  return Ref<T>(p);
}

/** `typing.cast(T, r)`: None passes; an instance that is no T goes back to CPython (it does not check). */
template <typename T, typename U>
inline Ref<T> RefCheckedCast(const Ref<U>& r) {
  U* p = r.get();
  if (p && !(p->tid >= T::kTid && p->tid <= T::kTidEnd)) Raise(SPINE_FAULT_FALLBACK, "cast to another class");
  return RefCast<T>(r);
}

/** @p r itself; None goes back to CPython (its AttributeError). */
template <typename T>
inline const Ref<T>& NotNone(const Ref<T>& r) {
  Deref(r);
  return r;
}

/** `r is None`. */
template <typename T, typename U>
inline bool IsNone(const Ref<U>& r) {
  return r.get() == nullptr;
}

/** `isinstance(r, T)`. */
template <typename T, typename U>
inline bool IsInstance(const Ref<U>& r) {
  U* p = r.get();
  return p && p->tid >= T::kTid && p->tid <= T::kTidEnd;
}

/** The class id of @p r's object (dispatch); None goes back to CPython. */
template <typename T, typename U>
inline int64_t TypeId(const Ref<U>& r) {
  return Deref(r)->tid;
}

/**
 * @brief Storage of module-level instance number N of class T: one per
 * loaded module (its symbols are hidden), released when the module unloads.
 */
template <typename T, int N>
struct ModuleSlot {
  /** The slot (null until first made). */
  static Ref<T>& Get() {
    static Ref<T> instance;
    return instance;
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_HIERARCHY_H_
