/**
 * @file object.h
 * @brief object_t (intrusive atomic count + runtime type index), object_p<T>
 * (owning pointer), object_r (type-erased reference) and MakeObject<T>.
 */
#ifndef SPINE_RUNTIME_OBJECT_H_
#define SPINE_RUNTIME_OBJECT_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "spine/runtime/error.h"
#include "spine/runtime/type_context.h"
#include "spine/runtime/type_index.h"

namespace spine::runtime {

/**
 * @brief Declare the runtime type of a node class. Place inside the class
 * body after `static constexpr int32_t INDEX` and `NAME`. INDEX may be
 * TypeIndex::Dynamic to get an index allocated on first use.
 */
#define SPINE_DEFINE_TYPEINDEX(Class, Parent)                                   \
  static int32_t RuntimeTypeIndex() {                                           \
    static const int32_t index = ::spine::runtime::TypeContext::Global().Register( \
        Class::NAME, Class::INDEX, Parent::RuntimeTypeIndex());                 \
    return index;                                                               \
  }

/**
 * @brief Common base of every heap object of the runtime.
 *
 * The count starts at 0 and is raised by the first owner (object_p), so a
 * freshly constructed object has no owner until MakeObject hands it out.
 */
class object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::Object;  /**< Root index. */
  static constexpr std::string_view NAME = "Object";   /**< Root name. */
  /** Index of the root type (no parent). */
  static int32_t RuntimeTypeIndex() { return TypeIndex::Object; }

  /** Fresh object: count 0, root type until MakeObject stamps it. */
  object_t() = default;
  /** Objects have identity: not copyable. */
  object_t(const object_t&) = delete;
  /** Not assignable. */
  object_t& operator=(const object_t&) = delete;
  /** Virtual so a DecCounter through the base destroys the full node. */
  virtual ~object_t() = default;

  /** The runtime type index of this object. */
  int32_t Index() const noexcept { return t_; }
  /** The registered name of this object's runtime type. */
  std::string Name() const { return TypeContext::Global().NameOf(t_); }
  /** True if this object is a T or derives from T (along the TypeContext parent chain). */
  template <typename T>
  bool IsType() const noexcept {
    return t_ == T::RuntimeTypeIndex() || TypeContext::Global().IsFrom(t_, T::RuntimeTypeIndex());
  }

  /** Add one owner. Relaxed: a new owner is always made from an existing one. */
  void IncCounter() const noexcept { count_.fetch_add(1, std::memory_order_relaxed); }
  /** Drop one owner; the last one deletes. Acq/rel so the deleter sees all writes. */
  void DecCounter() const noexcept {
    if (count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  /** Current owner count (for tests and diagnostics; racy by nature). */
  int32_t UseCount() const noexcept { return count_.load(std::memory_order_relaxed); }

 protected:
  int32_t t_{TypeIndex::Object};               /**< Runtime type index, written by MakeObject. */
  mutable std::atomic<int32_t> count_{0};      /**< Owner count. */
  friend struct ObjectAccess;
};

/** Internal: writes the type index of a new object. */
struct ObjectAccess {
  /** Set the runtime index of a node that is being created. */
  static void SetIndex(object_t* o, int32_t t) noexcept { o->t_ = t; }
};

/**
 * @brief Owning intrusive pointer. Copy adds an owner, move transfers it.
 */
template <typename T>
class object_p {
 public:
  /** Null pointer. */
  object_p() noexcept = default;
  /** Null pointer. */
  object_p(std::nullptr_t) noexcept {}  // NOLINT(runtime/explicit)
  /** Adopt @p p as an additional owner (the count is incremented). */
  explicit object_p(T* p) noexcept : p_(p) {
    if (p_) p_->IncCounter();
  }
  /** Copy: one more owner. */
  object_p(const object_p& o) noexcept : object_p(o.p_) {}
  /** Converting copy from a derived pointer. */
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  object_p(const object_p<U>& o) noexcept : object_p(o.get()) {}  // NOLINT
  /** Move: the source becomes null. */
  object_p(object_p&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  /** Converting move from a derived pointer. */
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  object_p(object_p<U>&& o) noexcept : p_(o.release()) {}  // NOLINT
  /** Drops this owner. */
  ~object_p() {
    if (p_) p_->DecCounter();
  }
  /** Copy-and-swap assignment covers self-assignment. */
  object_p& operator=(object_p o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  /** The raw pointer (not owned by the caller). */
  T* get() const noexcept { return p_; }
  /** Member access. */
  T* operator->() const noexcept { return p_; }
  /** Dereference. */
  T& operator*() const noexcept { return *p_; }
  /** True if non-null. */
  explicit operator bool() const noexcept { return p_ != nullptr; }
  /** Give up ownership without decrementing; the caller now owns one count. */
  T* release() noexcept {
    T* p = p_;
    p_ = nullptr;
    return p;
  }
  /** Make a pointer from one already-owned count (no increment). */
  static object_p Adopt(T* p) noexcept {
    object_p r;
    r.p_ = p;
    return r;
  }
  /** Pointer identity. */
  friend bool operator==(const object_p& a, const object_p& b) noexcept { return a.p_ == b.p_; }
  /** Pointer identity. */
  friend bool operator!=(const object_p& a, const object_p& b) noexcept { return a.p_ != b.p_; }

 private:
  T* p_ = nullptr;
};

/**
 * @brief Create a T on the heap, stamp its runtime type index and return the
 * first owner.
 */
template <typename T, typename... Args>
object_p<T> MakeObject(Args&&... args) {
  static_assert(std::is_base_of_v<object_t, T>, "MakeObject needs an object_t");
  T* p = new T(std::forward<Args>(args)...);
  ObjectAccess::SetIndex(p, T::RuntimeTypeIndex());
  return object_p<T>(p);
}

/**
 * @brief Type-erased reference to any object; the base of every reference
 * class (Str, List, Dict, ...). Copying shares the node.
 */
class object_r {
 public:
  /** The node type a plain object_r refers to. */
  using ContainerType = object_t;
  /** Null reference. */
  object_r() noexcept = default;
  /** Reference to @p p (shares ownership). */
  explicit object_r(object_p<object_t> p) noexcept : data_(std::move(p)) {}

  /** Checked downcast: the node as const T*, or nullptr if it is not a T. */
  template <typename T>
  const T* As() const noexcept {
    if (data_ && data_->IsType<T>()) return static_cast<const T*>(data_.get());
    return nullptr;
  }
  /** Checked downcast to a reference class R; throws TypeError on mismatch, null stays null. */
  template <typename R>
  R AsRef() const {
    if (!data_) return R();
    if (!data_->IsType<typename R::ContainerType>()) {
      ThrowTypeError("expected " + std::string(R::ContainerType::NAME) + ", got " + data_->Name());
    }
    R r;
    r.data_ = data_;
    return r;
  }
  /** The node (not owned by the caller); null for a null reference. */
  object_t* get() const noexcept { return data_.get(); }
  /** The owning pointer. */
  const object_p<object_t>& ptr() const noexcept { return data_; }
  /** True if the reference points at an object. */
  bool defined() const noexcept { return static_cast<bool>(data_); }
  /** Runtime type index of the node, TypeIndex::Null when undefined. */
  int32_t Index() const noexcept { return data_ ? data_->Index() : TypeIndex::Null; }
  /** Identity comparison (same node). */
  bool same_as(const object_r& o) const noexcept { return data_ == o.data_; }

 protected:
  object_p<object_t> data_;
};

/** Helper for reference classes: the node pointer as T* (unchecked; the class invariant guarantees T). */
template <typename T>
T* NodeOf(const object_r& r) noexcept {
  return static_cast<T*>(r.get());
}

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_OBJECT_H_
