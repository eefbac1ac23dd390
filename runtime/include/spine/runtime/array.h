/**
 * @file array.h
 * @brief Array<T>: a typed array of object references for internal
 * structures (AST parameter lists, statement blocks). The node stores
 * type-erased object_r; the template restores T at the interface, so only T
 * goes in and T comes out.
 */
#ifndef SPINE_RUNTIME_ARRAY_H_
#define SPINE_RUNTIME_ARRAY_H_

#include <initializer_list>
#include <type_traits>
#include <vector>

#include "spine/runtime/list.h"
#include "spine/runtime/object.h"

namespace spine::runtime {

/** @brief Node of every Array<T>. */
class ArrayNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeArray;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeArray";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(ArrayNode, object_t)
  std::vector<object_r> data;  /**< Elements. */
};

/** @brief Typed array; copying shares the node. */
template <typename T>
class Array : public object_r {
  static_assert(std::is_base_of_v<object_r, T>, "Array<T> holds reference classes");

 public:
  using ContainerType = ArrayNode;  /**< Node type. */
  /** A new empty array. */
  Array() : object_r(object_p<object_t>(MakeObject<ArrayNode>())) {}
  /** A new array of @p items. */
  Array(std::initializer_list<T> items) : Array() {
    for (const T& t : items) push_back(t);
  }
  /** Internal: adopt a node already checked to be an ArrayNode. */
  explicit Array(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** Element count. */
  size_t size() const noexcept { return node()->data.size(); }
  /** Append. */
  void push_back(const T& v) const { node()->data.push_back(v); }
  /** Element at Python index @p i (negative allowed); throws IndexError. */
  T operator[](int64_t i) const {
    return node()->data[NormalizeIndex(i, size(), "array")].template AsRef<T>();
  }
  /** Replace element @p i. */
  void set(int64_t i, const T& v) const { node()->data[NormalizeIndex(i, size(), "array")] = v; }

  /** Iterator that restores T from the stored object_r. */
  class iterator {
   public:
    /** Wrap the underlying iterator. */
    explicit iterator(std::vector<object_r>::const_iterator it) : it_(it) {}
    /** The element as T. */
    T operator*() const { return it_->template AsRef<T>(); }
    /** Advance. */
    iterator& operator++() {
      ++it_;
      return *this;
    }
    /** Position inequality. */
    bool operator!=(const iterator& o) const { return it_ != o.it_; }

   private:
    std::vector<object_r>::const_iterator it_;
  };
  /** Begin. */
  iterator begin() const { return iterator(node()->data.begin()); }
  /** End. */
  iterator end() const { return iterator(node()->data.end()); }

 private:
  ArrayNode* node() const noexcept { return NodeOf<ArrayNode>(*this); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_ARRAY_H_
