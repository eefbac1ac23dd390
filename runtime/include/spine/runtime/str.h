/**
 * @file str.h
 * @brief Str: an immutable, reference-counted UTF-8 string object.
 */
#ifndef SPINE_RUNTIME_STR_H_
#define SPINE_RUNTIME_STR_H_

#include <string>
#include <string_view>

#include "spine/runtime/any.h"
#include "spine/runtime/object.h"

namespace spine::runtime {

/** @brief Node of Str: the bytes. Immutable after construction. */
class StrNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeStr;      /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeStr";        /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(StrNode, object_t)
  /** Copy @p s. */
  explicit StrNode(std::string_view s) : data(s) {}
  const std::string data;  /**< UTF-8 bytes. */
};

/** @brief Reference to a StrNode; copying shares the node. */
class Str : public object_r {
 public:
  using ContainerType = StrNode;  /**< Node type. */
  /** Empty string. */
  Str() : Str(std::string_view()) {}
  /** Copy @p s into a new node. */
  Str(std::string_view s);  // NOLINT(runtime/explicit)
  /** Copy @p s into a new node. */
  Str(const char* s) : Str(std::string_view(s)) {}  // NOLINT(runtime/explicit)
  /** Copy @p s into a new node. */
  Str(const std::string& s) : Str(std::string_view(s)) {}  // NOLINT(runtime/explicit)
  /** Internal: adopt a node already checked to be a StrNode. */
  explicit Str(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** The bytes. */
  std::string_view view() const noexcept { return NodeOf<StrNode>(*this)->data; }
  /** Byte length. */
  size_t size() const noexcept { return view().size(); }
  /** NUL-terminated bytes. */
  const char* c_str() const noexcept { return NodeOf<StrNode>(*this)->data.c_str(); }
  /** Concatenation (a new node). */
  Str operator+(const Str& o) const;
  /** Content equality. */
  friend bool operator==(const Str& a, const Str& b) noexcept { return a.view() == b.view(); }
  /** Content inequality. */
  friend bool operator!=(const Str& a, const Str& b) noexcept { return !(a == b); }
};

/**
 * @brief Str converts from both string forms: a RuntimeStr is shared, an
 * immediate string is copied into a new node.
 */
template <>
struct ValueConverter<Str> {
  /** Conversion check. */
  static bool Check(const Any& v) noexcept {
    std::string_view s;
    return v.TryStringView(&s);
  }
  /** Conversion. */
  static Str From(const Any& v) {
    if (v.type_index() == TypeIndex::RuntimeStr) return Str(object_p<object_t>(v.ObjectPtr()));
    std::string_view s;
    if (!v.TryStringView(&s)) ThrowConversionError(v, "str");
    return Str(s);
  }
  /** Signature type. */
  static int32_t TypeIndexOf() noexcept { return TypeIndex::Str; }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_STR_H_
