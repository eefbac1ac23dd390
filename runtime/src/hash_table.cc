// Compact ordered hash table (CPython's dict layout). indices_ is a power of
// two and at most two thirds full (live + deleted slots); probing uses
// CPython's perturbation recurrence so every slot is eventually visited.
#include "spine/runtime/hash_table.h"

#include "spine/runtime/value_hash.h"

namespace spine::runtime {
namespace {
constexpr int32_t kEmpty = -1;
constexpr int32_t kDeleted = -2;
constexpr size_t kMinSize = 8;
}  // namespace

// Returns the slot in indices_ holding key, or -1. Caller ensures indices_ is non-empty.
int64_t HashTable::FindSlot(const Any& key, int64_t hash) const {
  size_t mask = indices_.size() - 1;
  uint64_t perturb = static_cast<uint64_t>(hash);
  size_t i = static_cast<size_t>(hash) & mask;
  for (;;) {
    int32_t ix = indices_[i];
    if (ix == kEmpty) return -1;
    if (ix >= 0) {
      const Entry& e = entries_[static_cast<size_t>(ix)];
      // Bitwise-equal values are equal without a call (fast path for ints
      // and identical object pointers); NaN keys are never found, as in Python
      // for distinct NaN objects.
      if (e.hash == hash && (e.key.BitwiseEquals(key) || PyEquals(e.key, key))) return static_cast<int64_t>(i);
    }
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
}

int64_t HashTable::Find(const Any& key) const {
  int64_t hash = PyHash(key);  // throws for unhashable keys even when empty, as Python does
  if (used_ == 0) return -1;
  int64_t slot = FindSlot(key, hash);
  return slot < 0 ? -1 : indices_[static_cast<size_t>(slot)];
}

void HashTable::Rebuild(size_t min_capacity) {
  size_t n = kMinSize;
  while (n * 2 < min_capacity * 3) n *= 2;
  // Compact the dense array (drops erased entries), then re-index.
  if (used_ != entries_.size()) {
    std::vector<Entry> live;
    live.reserve(used_);
    for (Entry& e : entries_) {
      if (e.live) live.push_back(std::move(e));
    }
    entries_.swap(live);
  }
  indices_.assign(n, kEmpty);
  size_t mask = n - 1;
  for (size_t k = 0; k < entries_.size(); ++k) {
    uint64_t perturb = static_cast<uint64_t>(entries_[k].hash);
    size_t i = static_cast<size_t>(entries_[k].hash) & mask;
    while (indices_[i] != kEmpty) {
      perturb >>= 5;
      i = (i * 5 + perturb + 1) & mask;
    }
    indices_[i] = static_cast<int32_t>(k);
  }
}

size_t HashTable::Insert(McValue key, McValue value) {
  int64_t hash = PyHash(key);
  if (!indices_.empty()) {
    int64_t slot = FindSlot(key, hash);
    if (slot >= 0) {
      size_t ix = static_cast<size_t>(indices_[static_cast<size_t>(slot)]);
      entries_[ix].value = std::move(value);
      return ix;
    }
  }
  // The dense array (live + erased entries) bounds the index load, so
  // insert/erase churn at a constant size triggers a compaction, not growth.
  if (indices_.empty() || (entries_.size() + 1) * 3 > indices_.size() * 2) {
    Rebuild(used_ + 1 > used_ * 2 ? used_ + 1 : used_ * 2);
  }
  size_t mask = indices_.size() - 1;
  uint64_t perturb = static_cast<uint64_t>(hash);
  size_t i = static_cast<size_t>(hash) & mask;
  while (indices_[i] >= 0) {  // reuse the first empty or deleted slot
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
  entries_.push_back(Entry{hash, std::move(key), std::move(value), true});
  indices_[i] = static_cast<int32_t>(entries_.size() - 1);
  ++used_;
  ++version_;
  return entries_.size() - 1;
}

bool HashTable::Erase(const Any& key) {
  int64_t hash = PyHash(key);
  if (used_ == 0) return false;
  int64_t slot = FindSlot(key, hash);
  if (slot < 0) return false;
  Entry& e = entries_[static_cast<size_t>(indices_[static_cast<size_t>(slot)])];
  indices_[static_cast<size_t>(slot)] = kDeleted;
  e.live = false;
  e.key.Clean();
  e.value.Clean();
  --used_;
  ++version_;
  return true;
}

void HashTable::Clear() noexcept {
  entries_.clear();
  indices_.clear();
  used_ = 0;
  ++version_;
}

}  // namespace spine::runtime
