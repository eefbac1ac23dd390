/**
 * @file any.h
 * @brief Any: the typed interface over a raw Value (queries and checked
 * conversions), and McView, the borrowing Any.
 *
 * Any never releases anything; ownership is added by McValue (mc_value.h).
 * Any, McView and McValue share one 16-byte layout, so an array of McValue
 * can be passed where an array of Any is expected.
 */
#ifndef SPINE_RUNTIME_ANY_H_
#define SPINE_RUNTIME_ANY_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "spine/runtime/datatype.h"
#include "spine/runtime/error.h"
#include "spine/runtime/object.h"
#include "spine/runtime/type_index.h"
#include "spine/runtime/value.h"

namespace spine::runtime {

class Any;

/**
 * @brief Conversion rules between Any and a C++ type. Specialised below and
 * in mc_value.h; `Check` answers Is<T>, `From` implements As<T> and throws
 * TypeError on mismatch, `TypeIndexOf` is what a signature records.
 */
template <typename T, typename = void>
struct ValueConverter;

/** @brief A Value with a typed interface. Does not own its payload. */
class Any {
 public:
  /** Null. */
  Any() noexcept { std::memset(&value_, 0, sizeof(value_)); value_.t = TypeIndex::Null; }
  /** View an ABI value. */
  explicit Any(const Value& v) noexcept : value_(v) {}

  /** The raw ABI value. */
  const Value& value() const noexcept { return value_; }
  /** The type tag. */
  int32_t type_index() const noexcept { return value_.t; }
  /** True for None. */
  bool IsNull() const noexcept { return value_.t == TypeIndex::Null; }
  /** True if the payload is an object pointer. */
  bool IsObject() const noexcept { return IsObjectTag(value_.t); }
  /** The object pointer, or nullptr if this is not an object. */
  object_t* ObjectPtr() const noexcept {
    return IsObject() ? static_cast<object_t*>(value_.u.v_pointer) : nullptr;
  }
  /** True if this is a string (immediate or RuntimeStr); sets @p out to its bytes. */
  bool TryStringView(std::string_view* out) const noexcept;
  /** Python-style name of the held type ("int", "str", "list", ...). */
  std::string TypeName() const;

  /** True if As<T>() would succeed. */
  template <typename T>
  bool Is() const {
    return ValueConverter<T>::Check(*this);
  }
  /** Convert to T; throws TypeError if the value is not convertible. */
  template <typename T>
  T As() const {
    return ValueConverter<T>::From(*this);
  }

  /** Bytewise identity (all producers zero unused bytes). Not Python equality; see value_hash.h. */
  bool BitwiseEquals(const Any& o) const noexcept { return std::memcmp(&value_, &o.value_, sizeof(Value)) == 0; }

 protected:
  Value value_;  /**< The payload; every constructor zeroes it first. */
};

/** Python-style display name for a type index (used in error messages). */
std::string TypeDisplayName(int32_t type_index);
/** Throw the standard conversion error: "expected <want>, got <TypeName>". */
[[noreturn]] void ThrowConversionError(const Any& v, const char* want);

/** @brief A borrowing Any: builds views of C++ values without copying or counting. */
class McView : public Any {
 public:
  /** None. */
  McView() noexcept = default;
  /** View another value (no ownership taken). */
  McView(const Any& o) noexcept : Any(o) {}  // NOLINT(runtime/explicit)
  /** Integer. */
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
  McView(T v) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::Int;
    value_.u.v_int = static_cast<int64_t>(v);
  }
  /** bool. */
  McView(bool v) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::Bool;
    value_.u.v_int = v ? 1 : 0;
  }
  /** double. */
  McView(double v) noexcept {  // NOLINT(runtime/explicit)
    value_.t = TypeIndex::Float;
    value_.u.v_float = v;
  }
  /** Borrowed UTF-8 bytes; @p s must outlive the view. Strings over 2 GiB are rejected. */
  McView(std::string_view s);  // NOLINT(runtime/explicit)
  /** Borrowed NUL-terminated string. */
  McView(const char* s) : McView(std::string_view(s)) {}  // NOLINT(runtime/explicit)
  /** Borrowed object (no count added); null becomes None. */
  McView(const object_r& o) noexcept {  // NOLINT(runtime/explicit)
    if (o.defined()) {
      value_.t = o.Index();
      value_.u.v_pointer = o.get();
    }
  }
};

static_assert(sizeof(Any) == sizeof(Value), "Any must keep the Value layout");
static_assert(sizeof(McView) == sizeof(Value), "McView must keep the Value layout");

// ---- converters for immediates --------------------------------------------

/** Integers: accept INT and BOOL (Python's bool is an int); range-checked for narrow types. */
template <typename T>
struct ValueConverter<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept {
    return v.type_index() == TypeIndex::Int || v.type_index() == TypeIndex::Bool;
  }
  /** Conversion. */
  static T From(const Any& v) {
    if (!Check(v)) ThrowConversionError(v, "int");
    int64_t x = v.value().u.v_int;
    if constexpr (!std::is_same_v<T, int64_t>) {
      if (static_cast<int64_t>(static_cast<T>(x)) != x ||
          (std::is_unsigned_v<T> && x < 0)) {
        throw Error(ErrorKind::kOverflowError, "integer " + std::to_string(x) + " out of range");
      }
    }
    return static_cast<T>(x);
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Int; }
};

/** bool: accepts only BOOL (an int where a bool is declared is a type error, as in typed code). */
template <>
struct ValueConverter<bool> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept { return v.type_index() == TypeIndex::Bool; }
  /** Conversion. */
  static bool From(const Any& v) {
    if (!Check(v)) ThrowConversionError(v, "bool");
    return v.value().u.v_int != 0;
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Bool; }
};

/** Floating point: accept FLOAT, INT and BOOL (int -> float promotion as in Python). */
template <typename T>
struct ValueConverter<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept {
    int32_t t = v.type_index();
    return t == TypeIndex::Float || t == TypeIndex::Int || t == TypeIndex::Bool;
  }
  /** Conversion. */
  static T From(const Any& v) {
    int32_t t = v.type_index();
    if (t == TypeIndex::Float) return static_cast<T>(v.value().u.v_float);
    if (t == TypeIndex::Int || t == TypeIndex::Bool) return static_cast<T>(v.value().u.v_int);
    ThrowConversionError(v, "float");
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Float; }
};

/** Borrowed string bytes (immediate or RuntimeStr). */
template <>
struct ValueConverter<std::string_view> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept {
    std::string_view s;
    return v.TryStringView(&s);
  }
  /** Conversion. */
  static std::string_view From(const Any& v) {
    std::string_view s;
    if (!v.TryStringView(&s)) ThrowConversionError(v, "str");
    return s;
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Str; }
};

/** Owned string copy. */
template <>
struct ValueConverter<std::string> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept { return ValueConverter<std::string_view>::Check(v); }
  /** Conversion. */
  static std::string From(const Any& v) { return std::string(ValueConverter<std::string_view>::From(v)); }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Str; }
};

/** DataType. */
template <>
struct ValueConverter<DataType> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept { return v.type_index() == TypeIndex::DataType; }
  /** Conversion. */
  static DataType From(const Any& v) {
    if (!Check(v)) ThrowConversionError(v, "DataType");
    return DataType(v.value().u.v_datatype);
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::DataType; }
};

/** Opaque pointer. */
template <>
struct ValueConverter<void*> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept { return v.type_index() == TypeIndex::Pointer; }
  /** Conversion. */
  static void* From(const Any& v) {
    if (!Check(v)) ThrowConversionError(v, "pointer");
    return v.value().u.v_pointer;
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Pointer; }
};

/** Reference classes (object_r and everything derived): checked against the node type; None is rejected. */
template <typename T>
struct ValueConverter<T, std::enable_if_t<std::is_base_of_v<object_r, T>>> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept {
    object_t* o = v.ObjectPtr();
    return o != nullptr && o->IsType<typename T::ContainerType>();
  }
  /** Conversion. */
  static T From(const Any& v) {
    if (!Check(v)) ThrowConversionError(v, std::string(T::ContainerType::NAME).c_str());
    return object_r(object_p<object_t>(v.ObjectPtr())).AsRef<T>();
  }
  /** Signature type. */
  static int32_t TypeIndexOf() { return T::ContainerType::RuntimeTypeIndex(); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_ANY_H_
