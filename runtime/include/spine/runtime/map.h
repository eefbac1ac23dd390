/**
 * @file map.h
 * @brief Map<K, V>: a typed map for internal structures (function
 * attributes). Entries are McValues in the shared ordered HashTable; the
 * template converts at the interface so only K and V go in and come out.
 */
#ifndef SPINE_RUNTIME_MAP_H_
#define SPINE_RUNTIME_MAP_H_

#include <utility>

#include "spine/runtime/hash_table.h"

namespace spine::runtime {

/** @brief Node of every Map<K, V>. */
class MapNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeMap;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeMap";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(MapNode, object_t)
  HashTable table;  /**< Entries. */
};

/** @brief Typed map; copying shares the node. */
template <typename K, typename V>
class Map : public object_r {
 public:
  using ContainerType = MapNode;  /**< Node type. */
  /** A new empty map. */
  Map() : object_r(object_p<object_t>(MakeObject<MapNode>())) {}
  /** Internal: adopt a node already checked to be a MapNode. */
  explicit Map(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /** Entry count. */
  size_t size() const noexcept { return node()->table.size(); }
  /** Insert or overwrite. */
  void set(const K& k, const V& v) const { node()->table.Insert(McValue(k), McValue(v)); }
  /** Membership. */
  bool contains(const K& k) const { return node()->table.Find(McValue(k)) >= 0; }
  /** The value for @p k; throws KeyError. */
  V get(const K& k) const {
    int64_t i = node()->table.Find(McValue(k));
    if (i < 0) ThrowKeyError("key not found in Map");
    return node()->table.entries()[static_cast<size_t>(i)].value.template As<V>();
  }
  /** Remove @p k. */
  bool erase(const K& k) const { return node()->table.Erase(McValue(k)); }
  /** Visit the entries in insertion order as (K, V). */
  template <typename F>
  void ForEach(F&& f) const {
    for (const auto& e : node()->table.entries()) {
      if (e.live) f(e.key.template As<K>(), e.value.template As<V>());
    }
  }

 private:
  MapNode* node() const noexcept { return NodeOf<MapNode>(*this); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_MAP_H_
