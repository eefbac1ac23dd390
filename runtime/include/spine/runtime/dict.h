/**
 * @file dict.h
 * @brief Dict: Python's dict over dynamic values, insertion-ordered, with
 * items/keys/values views.
 */
#ifndef SPINE_RUNTIME_DICT_H_
#define SPINE_RUNTIME_DICT_H_

#include <initializer_list>
#include <utility>

#include "spine/runtime/hash_table.h"

namespace spine::runtime {

/** @brief Node of Dict. */
class DictNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeDict;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeDict";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(DictNode, object_t)
  HashTable table;  /**< Entries. */
};

/** @brief Reference to a DictNode. */
class Dict : public object_r {
 public:
  using ContainerType = DictNode;  /**< Node type. */
  /** A new empty dict. */
  Dict();
  /** A new dict from (key, value) pairs; later duplicates overwrite earlier ones. */
  Dict(std::initializer_list<std::pair<McValue, McValue>> items);
  /** Internal: adopt a node already checked to be a DictNode. */
  explicit Dict(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** Live entry count. */
  size_t size() const noexcept { return table().size(); }
  /** Membership (Python equality of keys). */
  bool contains(const Any& key) const { return table().Find(key) >= 0; }
  /** The value for @p key; throws KeyError. */
  const McValue& get(const Any& key) const;
  /** The value for @p key, or @p fallback. */
  McValue get(const Any& key, McValue fallback) const;
  /** Insert or overwrite. */
  void set(McValue key, McValue value) const { node()->table.Insert(std::move(key), std::move(value)); }
  /** Python's d[key] for assignment: inserts None if missing. The reference dies on the next insertion. */
  McValue& operator[](McValue key) const;
  /** Remove @p key; returns whether it was present. */
  bool erase(const Any& key) const { return node()->table.Erase(key); }
  /** Remove everything. */
  void clear() const noexcept { node()->table.Clear(); }
  /** dict.items(): (key, value) pairs in insertion order. */
  HashTableView<ItemProjection> items() const { return HashTableView<ItemProjection>(&table()); }
  /** dict.keys(). */
  HashTableView<KeyProjection> keys() const { return HashTableView<KeyProjection>(&table()); }
  /** dict.values(). */
  HashTableView<ValueProjection> values() const { return HashTableView<ValueProjection>(&table()); }
  /** The underlying table (read-only). */
  const HashTable& table() const noexcept { return NodeOf<DictNode>(*this)->table; }

 private:
  DictNode* node() const noexcept { return NodeOf<DictNode>(*this); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_DICT_H_
