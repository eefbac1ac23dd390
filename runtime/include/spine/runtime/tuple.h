/**
 * @file tuple.h
 * @brief Tuple: an immutable sequence of dynamic values (hashable when its
 * elements are).
 */
#ifndef SPINE_RUNTIME_TUPLE_H_
#define SPINE_RUNTIME_TUPLE_H_

#include <initializer_list>
#include <vector>

#include "spine/runtime/list.h"
#include "spine/runtime/mc_value.h"

namespace spine::runtime {

/** @brief Node of Tuple; the elements are fixed at construction. */
class TupleNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeTuple;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeTuple";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(TupleNode, object_t)
  /** Take the elements. */
  explicit TupleNode(std::vector<McValue> items) : data(std::move(items)) {}
  const std::vector<McValue> data;  /**< Elements (immutable). */
};

/** @brief Reference to a TupleNode. */
class Tuple : public object_r {
 public:
  using ContainerType = TupleNode;                              /**< Node type. */
  using const_iterator = std::vector<McValue>::const_iterator;  /**< C++ iteration. */
  /** The empty tuple. */
  Tuple() : Tuple(std::vector<McValue>()) {}
  /** Copies of @p items. */
  Tuple(std::initializer_list<McValue> items) : Tuple(std::vector<McValue>(items)) {}
  /** Take @p items. */
  explicit Tuple(std::vector<McValue> items);
  /** Internal: adopt a node already checked to be a TupleNode. */
  explicit Tuple(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** Element count. */
  size_t size() const noexcept { return node()->data.size(); }
  /** Element at Python index @p i; throws IndexError. */
  const McValue& operator[](int64_t i) const {
    return node()->data[NormalizeIndex(i, node()->data.size(), "tuple")];
  }
  /** Begin. */
  const_iterator begin() const noexcept { return node()->data.begin(); }
  /** End. */
  const_iterator end() const noexcept { return node()->data.end(); }

 private:
  const TupleNode* node() const noexcept { return NodeOf<TupleNode>(*this); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_TUPLE_H_
