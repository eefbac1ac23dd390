/**
 * @file hash_table.h
 * @brief The insertion-ordered hash table behind Dict, Set and Map.
 *
 * Layout follows CPython's compact dict: a dense entry array in insertion
 * order plus a sparse power-of-two index array probed with CPython's
 * perturbation scheme. Iteration order is therefore Python's, and values
 * round-trip to Python dicts unchanged. Hashing and equality are PyHash and
 * PyEquals, so 1, 1.0 and True collide and compare equal.
 */
#ifndef SPINE_RUNTIME_HASH_TABLE_H_
#define SPINE_RUNTIME_HASH_TABLE_H_

#include <cstdint>
#include <vector>

#include "spine/runtime/mc_value.h"

namespace spine::runtime {

/** @brief Ordered open-addressing table of McValue keys and values. */
class HashTable {
 public:
  /** One slot of the dense array. Dead entries (erased) stay until the next rebuild. */
  struct Entry {
    int64_t hash;   /**< PyHash of the key. */
    McValue key;    /**< Key; None with live == false marks an erased entry. */
    McValue value;  /**< Value (unused by Set). */
    bool live;      /**< False once erased. */
  };

  /** Number of live entries. */
  size_t size() const noexcept { return used_; }
  /** Index of @p key in entries(), or -1. Throws TypeError for unhashable keys. */
  int64_t Find(const Any& key) const;
  /**
   * @brief Insert or overwrite. Returns the entry index. When the key exists
   * its value is replaced and the original key object is kept (as Python does).
   */
  size_t Insert(McValue key, McValue value);
  /** Remove @p key; returns whether it was present. */
  bool Erase(const Any& key);
  /** Remove everything. */
  void Clear() noexcept;
  /** The dense entry array, including dead entries (check Entry::live). */
  const std::vector<Entry>& entries() const noexcept { return entries_; }
  /** Mutable entry access (values only; never change a key in place). */
  Entry& entry(size_t i) noexcept { return entries_[i]; }
  /** Changes on every insertion of a new key, erase and clear; iterators use it to detect mutation. */
  uint64_t version() const noexcept { return version_; }

 private:
  int64_t FindSlot(const Any& key, int64_t hash) const;
  void Rebuild(size_t min_capacity);
  std::vector<Entry> entries_;
  std::vector<int32_t> indices_;  // -1 empty, -2 deleted, else entry index
  size_t used_ = 0;
  uint64_t version_ = 0;
};

/**
 * @brief Iterator over the live entries of a HashTable, projected by P
 * (key, value or item). Keys, values and items views share it.
 */
template <typename P>
class HashTableIterator {
 public:
  /** Position @p i in @p entries (advanced to the first live entry). */
  HashTableIterator(const std::vector<HashTable::Entry>* entries, size_t i) : e_(entries), i_(i) { Skip(); }
  /** Projected entry. */
  decltype(auto) operator*() const { return P::Get((*e_)[i_]); }
  /** Next live entry. */
  HashTableIterator& operator++() {
    ++i_;
    Skip();
    return *this;
  }
  /** Position equality. */
  bool operator!=(const HashTableIterator& o) const noexcept { return i_ != o.i_; }
  /** Position equality. */
  bool operator==(const HashTableIterator& o) const noexcept { return i_ == o.i_; }

 private:
  void Skip() {
    while (i_ < e_->size() && !(*e_)[i_].live) ++i_;
  }
  const std::vector<HashTable::Entry>* e_;
  size_t i_;
};

/** Projection to the key. */
struct KeyProjection {
  /** The key. */
  static const McValue& Get(const HashTable::Entry& e) noexcept { return e.key; }
};
/** Projection to the value. */
struct ValueProjection {
  /** The value. */
  static const McValue& Get(const HashTable::Entry& e) noexcept { return e.value; }
};
/** Projection to (key, value). */
struct ItemProjection {
  /** The pair of references. */
  static std::pair<const McValue&, const McValue&> Get(const HashTable::Entry& e) noexcept {
    return {e.key, e.value};
  }
};

/** @brief A begin/end pair over a table, for range-for. */
template <typename P>
class HashTableView {
 public:
  /** View @p t. The table must outlive the view (hold the container reference). */
  explicit HashTableView(const HashTable* t) : t_(t) {}
  /** First live entry. */
  HashTableIterator<P> begin() const { return HashTableIterator<P>(&t_->entries(), 0); }
  /** One past the last entry. */
  HashTableIterator<P> end() const { return HashTableIterator<P>(&t_->entries(), t_->entries().size()); }
  /** Live entry count. */
  size_t size() const noexcept { return t_->size(); }

 private:
  const HashTable* t_;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_HASH_TABLE_H_
