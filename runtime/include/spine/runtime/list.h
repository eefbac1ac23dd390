/**
 * @file list.h
 * @brief List: Python's list of dynamic values (negative indexing, bounds
 * errors). Copying a List shares the node, as Python names do.
 */
#ifndef SPINE_RUNTIME_LIST_H_
#define SPINE_RUNTIME_LIST_H_

#include <initializer_list>
#include <vector>

#include "spine/runtime/mc_value.h"

namespace spine::runtime {

/** Normalise a Python index against @p size; throws IndexError("<what> index out of range"). */
size_t NormalizeIndex(int64_t index, size_t size, const char* what);

/** @brief Node of List. */
class ListNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeList;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeList";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(ListNode, object_t)
  /** Element at Python index @p i (negative counts from the end). */
  McValue& at(int64_t i) { return data[NormalizeIndex(i, data.size(), "list")]; }
  std::vector<McValue> data;  /**< Elements. */
};

/** @brief Reference to a ListNode. */
class List : public object_r {
 public:
  using ContainerType = ListNode;                          /**< Node type. */
  using iterator = std::vector<McValue>::iterator;         /**< C++ iteration. */
  using const_iterator = std::vector<McValue>::const_iterator;  /**< C++ iteration. */
  /** A new empty list. */
  List();
  /** A new list holding copies of @p items. */
  List(std::initializer_list<McValue> items);
  /** Internal: adopt a node already checked to be a ListNode. */
  explicit List(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** Element count. */
  size_t size() const noexcept { return node()->data.size(); }
  /** True if there are no elements. */
  bool empty() const noexcept { return node()->data.empty(); }
  /** Element at Python index @p i; throws IndexError. The reference is invalidated by growth. */
  McValue& operator[](int64_t i) const { return node()->at(i); }
  /** Same as operator[]. */
  McValue& at(int64_t i) const { return node()->at(i); }
  /** Replace the element at @p i. */
  void set(int64_t i, McValue v) const { node()->at(i) = std::move(v); }
  /** Append (the value is moved in). */
  void append(McValue v) const { node()->data.push_back(std::move(v)); }
  /** Remove and return the last element; throws IndexError("pop from empty list"). */
  McValue pop() const;
  /** Remove every element. */
  void clear() const noexcept { node()->data.clear(); }
  /** Reserve capacity. */
  void reserve(size_t n) const { node()->data.reserve(n); }
  /** Begin of the elements. */
  iterator begin() const noexcept { return node()->data.begin(); }
  /** End of the elements. */
  iterator end() const noexcept { return node()->data.end(); }

 private:
  ListNode* node() const noexcept { return NodeOf<ListNode>(*this); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_LIST_H_
