/**
 * @file mc_value.h
 * @brief McValue: the owning Any. Immediates copy, immediate strings copy
 * their bytes, objects share a count, move leaves Null, and one function,
 * Clean(), holds every release rule.
 */
#ifndef SPINE_RUNTIME_MC_VALUE_H_
#define SPINE_RUNTIME_MC_VALUE_H_

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "spine/runtime/any.h"

namespace spine::runtime {

/** @brief An owning dynamic value. Same 16-byte layout as Value. */
class McValue : public Any {
 public:
  /** None. */
  McValue() noexcept = default;
  /** None. */
  McValue(std::nullptr_t) noexcept {}  // NOLINT(runtime/explicit)
  /** Integer. */
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
  McValue(T v) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::Int;
    value_.u.v_int = static_cast<int64_t>(v);
  }
  /** bool. */
  McValue(bool v) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::Bool;
    value_.u.v_int = v ? 1 : 0;
  }
  /** double. */
  McValue(double v) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::Float;
    value_.u.v_float = v;
  }
  /** Copies the bytes into an owned, NUL-terminated buffer. */
  McValue(std::string_view s);  // NOLINT(runtime/explicit)
  /** Copies the bytes. */
  McValue(const char* s) : McValue(std::string_view(s)) {}  // NOLINT(runtime/explicit)
  /** Copies the bytes. */
  McValue(const std::string& s) : McValue(std::string_view(s)) {}  // NOLINT(runtime/explicit)
  /** DataType. */
  McValue(DataType d) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::DataType;
    value_.u.v_datatype = d.raw();
  }
  /** Shares the object (count + 1); an undefined reference becomes None. */
  McValue(const object_r& o) noexcept {  // NOLINT(runtime/explicit)
    if (o.defined()) {
      o.get()->IncCounter();
      value_.t = o.Index();
      value_.u.v_pointer = o.get();
    }
  }
  /** Shares the object of an owning pointer. */
  template <typename T>
  McValue(const object_p<T>& p) noexcept : McValue(object_r(object_p<object_t>(p))) {}  // NOLINT
  /** Opaque pointer (never owned). */
  static McValue Pointer(void* p) noexcept {
    McValue v;
    v.value_.t = TypeIndex::Pointer;
    v.value_.u.v_pointer = p;
    return v;
  }
  /** Deep enough copy of any value: the same rules as the copy constructor. */
  static McValue CopyFrom(const Any& v) {
    McValue r;
    r.CopyAssign(v.value());
    return r;
  }
  /** Take ownership of @p v as produced by Release() or the C API. */
  static McValue Adopt(const Value& v) noexcept {
    McValue r;
    r.value_ = v;
    return r;
  }

  /** Copy (see class comment for the rules). */
  McValue(const McValue& o) : Any() { CopyAssign(o.value_); }
  /** Move: the source becomes None. */
  McValue(McValue&& o) noexcept {
    value_ = o.value_;
    o.SetNullNoClean();
  }
  /** Copy assignment; safe for self-assignment. */
  McValue& operator=(const McValue& o) {
    if (this != &o) {
      McValue tmp(o);
      Swap(tmp);
    }
    return *this;
  }
  /** Move assignment; the source becomes None. */
  McValue& operator=(McValue&& o) noexcept {
    if (this != &o) {
      Clean();
      value_ = o.value_;
      o.SetNullNoClean();
    }
    return *this;
  }
  /** Releases what is held (see Clean). */
  ~McValue() { Clean(); }

  /** Release whatever is held and become None. The only place with release rules. */
  void Clean() noexcept {
    if (IsObjectTag(value_.t)) {
      static_cast<object_t*>(value_.u.v_pointer)->DecCounter();
    } else if (value_.t == TypeIndex::Str) {
      delete[] value_.u.v_str;
    }
    SetNullNoClean();
  }
  /** Give up ownership: returns the raw value (the caller must release it) and becomes None. */
  Value Release() noexcept {
    Value v = value_;
    SetNullNoClean();
    return v;
  }
  /** Exchange contents. */
  void Swap(McValue& o) noexcept { std::swap(value_, o.value_); }

 private:
  void SetNullNoClean() noexcept {
    std::memset(&value_, 0, sizeof(value_));
    value_.t = TypeIndex::Null;
  }
  void CopyAssign(const Value& v);
};

static_assert(sizeof(McValue) == sizeof(Value), "McValue must keep the Value layout");

/** McValue converts from any value by copy. */
template <>
struct ValueConverter<McValue> {
  /** Always true. */
  static bool Check(const Any&) noexcept { return true; }
  /** Copy. */
  static McValue From(const Any& v) { return McValue::CopyFrom(v); }
  /** Any type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Any; }
};

/** McView converts from any value by borrowing. */
template <>
struct ValueConverter<McView> {
  /** Always true. */
  static bool Check(const Any&) noexcept { return true; }
  /** Borrow. */
  static McView From(const Any& v) noexcept { return McView(v); }
  /** Any type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Any; }
};

/** Turn a C++ value into an owned McValue (ToValue(McValue) is identity). */
template <typename T>
McValue ToValue(T&& v) {
  return McValue(std::forward<T>(v));
}

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_MC_VALUE_H_
