/**
 * @file set.h
 * @brief Set: Python's set over dynamic values (insertion-ordered iteration).
 */
#ifndef SPINE_RUNTIME_SET_H_
#define SPINE_RUNTIME_SET_H_

#include <initializer_list>

#include "spine/runtime/hash_table.h"

namespace spine::runtime {

/** @brief Node of Set. */
class SetNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeSet;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeSet";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(SetNode, object_t)
  HashTable table;  /**< Members (values unused). */
};

/** @brief Reference to a SetNode. */
class Set : public object_r {
 public:
  using ContainerType = SetNode;  /**< Node type. */
  /** A new empty set. */
  Set();
  /** A new set of @p items (duplicates collapse). */
  Set(std::initializer_list<McValue> items);
  /** Internal: adopt a node already checked to be a SetNode. */
  explicit Set(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** Member count. */
  size_t size() const noexcept { return table().size(); }
  /** Membership. */
  bool contains(const Any& v) const { return table().Find(v) >= 0; }
  /** Add @p v; returns true if it was not present. */
  bool insert(McValue v) const;
  /** Remove @p v; returns whether it was present. */
  bool erase(const Any& v) const { return node()->table.Erase(v); }
  /** Remove everything. */
  void clear() const noexcept { node()->table.Clear(); }
  /** First member. */
  HashTableIterator<KeyProjection> begin() const { return HashTableView<KeyProjection>(&table()).begin(); }
  /** End. */
  HashTableIterator<KeyProjection> end() const { return HashTableView<KeyProjection>(&table()).end(); }
  /** The underlying table. */
  const HashTable& table() const noexcept { return NodeOf<SetNode>(*this)->table; }

 private:
  SetNode* node() const noexcept { return NodeOf<SetNode>(*this); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_SET_H_
