/**
 * @file table.h
 * @brief Native dict[K, V]: CPython's compact layout (a dense
 * entry array in insertion order plus a power-of-two index probed with
 * CPython's perturbation), so dict iteration order is Python's. Keys are
 * unboxed; hashes are native (the order never depends on them).
 */
#ifndef SPINE_COMPILER_CODEGEN_TABLE_H_
#define SPINE_COMPILER_CODEGEN_TABLE_H_

#include "spine/compiler/codegen/list.h"

namespace spine_cg {

/** @brief Shared storage of a dict. */
template <typename K, typename V>
struct TableObj {
  /** One dense slot; erased entries stay (dead) until the next rebuild. */
  struct Entry {
    uint64_t hash;  /**< Hash of key. */
    K key;          /**< Key (destroyed when erased). */
    V value;        /**< Value (destroyed when erased). */
    bool live;      /**< False once erased. */
  };
  int64_t rc = 1;               /**< Owner count. */
  Entry* entries = nullptr;     /**< Dense array, insertion order. */
  int64_t n_entries = 0;        /**< Slots used in entries (live and dead). */
  int64_t cap_entries = 0;      /**< Slots allocated. */
  int32_t* index = nullptr;     /**< -1 empty, -2 erased, else an entry (tables stay below 2**31). */
  uint64_t mask = 0;            /**< Index size - 1 (0 with no index). */
  int64_t used = 0;             /**< Live entries. */
  uint64_t version = 0;         /**< Bumped when a key is added or erased (iterators check it). */
  int64_t last = -1;            /**< Entry of the last lookup: `d[k] = d.get(k, 0) + 1` probes once. */
  ~TableObj() {
    for (int64_t i = 0; i < n_entries; ++i) {
      if (entries[i].live) entries[i].~Entry();
    }
    Free(entries);
    Free(index);
  }
};
/** A dict of scalars is released inline, any other out of line (ReleasedInline). */
template <typename K, typename V>
struct ReleasedInline<TableObj<K, V>> {
  static constexpr bool value = IsScalar<K>::value && IsScalar<V>::value;  /**< Nothing to release per entry. */
};

/** Whether a table's keys are str (FindStrEntry). */
template <typename K>
struct KeyIsStr {
  static constexpr bool value = false;  /**< Other keys. */
};
template <>
struct KeyIsStr<Str> {
  static constexpr bool value = true;  /**< str. */
};

/**
 * The entry of the str @p key (hash @p h) in a table, or -1: Table::Find for
 * str keys, one copy per module whatever the values, reading the entries
 * through their stride (@p first_hash and @p first_key are the first entry's
 * fields; @p last the entry of the previous lookup). Inlined at every
 * lookup, the probe loop and the string comparison were a large part of the
 * compile time of modules that use dicts keyed by str. Pure (it only reads):
 * the caller's loop keeps what it holds in registers across the call.
 */
SPINE_CG_OUTLINE __attribute__((pure)) inline int64_t FindStrEntry(const char* first_hash, const char* first_key,
                                                                   size_t stride, const int32_t* index,
                                                                   uint64_t mask, int64_t last, const Str& key,
                                                                   uint64_t h) {
  auto hash_at = [&](int64_t ix) {
    uint64_t stored;
    __builtin_memcpy(&stored, first_hash + static_cast<size_t>(ix) * stride, sizeof stored);
    return stored;
  };
  auto key_at = [&](int64_t ix) -> const Str& {
    return *reinterpret_cast<const Str*>(first_key + static_cast<size_t>(ix) * stride);
  };
  if (last >= 0 && hash_at(last) == h && Traits<Str>::Eq(key_at(last), key)) return last;
  for (uint64_t i = h & mask, perturb = h;; perturb >>= 5, i = (i * 5 + perturb + 1) & mask) {
    int64_t ix = index[i];
    if (ix == -1) return -1;
    if (ix >= 0 && hash_at(ix) == h && Traits<Str>::Eq(key_at(ix), key)) return ix;
  }
}

/** @brief Operations on a table; Dict is a thin face over it. */
template <typename K, typename V>
class Table {
 public:
  using Obj = TableObj<K, V>;          /**< Storage. */
  using Entry = typename Obj::Entry;   /**< Dense slot. */
  /** Unset handle. */
  Table() noexcept = default;
  /** A new empty table. */
  static Table New() {
    Table t;
    t.r_ = Ref<Obj>::New();
    return t;
  }
  /** Live entry count. */
  int64_t size() const noexcept { return r_->used; }
  /** Storage identity. */
  const void* id() const noexcept { return r_.get(); }
  /** Raw storage (iterators). */
  Obj* obj() const noexcept { return r_.get(); }
  /** Entry index of @p key, or -1. */
  int64_t Find(const K& key) const {
    if constexpr (IsScalar<K>::value) {
      return Lookup(key);
    } else if constexpr (KeyIsStr<K>::value) {
      Obj* o = r_.get();
      if (o->used == 0) return -1;
      uint64_t h = key.Hash();
      if (o->last >= 0) {  // `d[w] = d.get(w, 0) + 1`: the same string as the last lookup's, without a call
        const Entry& e = o->entries[o->last];
        if (e.hash == h && e.key.data() == key.data() && e.key.bytes() == key.bytes()) return o->last;
      }
      const char* first = reinterpret_cast<const char*>(o->entries);
      int64_t ix = FindStrEntry(first, first + __builtin_offsetof(Entry, key), sizeof(Entry), o->index, o->mask,
                                o->last, key, h);
      if (ix >= 0) o->last = ix;
      return ix;
    } else {
      return FindOutOfLine(key);
    }
  }
  /** Find, one copy per key type (IsScalar). */
  SPINE_CG_OUTLINE int64_t FindOutOfLine(const K& key) const { return Lookup(key); }
  /** Find's work. */
  int64_t Lookup(const K& key) const {
    Obj* o = r_.get();
    if (o->used == 0) {
      HashOfAbsent<K>::Check(key);
      return -1;
    }
    uint64_t h = Traits<K>::Hash(key);
    if (o->last >= 0 && o->entries[o->last].hash == h && Traits<K>::Eq(o->entries[o->last].key, key)) return o->last;
    for (uint64_t i = h & o->mask, perturb = h;; perturb >>= 5, i = (i * 5 + perturb + 1) & o->mask) {
      int64_t ix = o->index[i];
      if (ix == -1) return -1;
      if (ix >= 0 && o->entries[ix].hash == h && Traits<K>::Eq(o->entries[ix].key, key)) return o->last = ix;
    }
  }
  /** The entry at index @p ix. */
  Entry& at(int64_t ix) const noexcept { return r_->entries[ix]; }
  /** Insert @p key (absent) with @p value; returns its entry index. */
  int64_t InsertNew(K key, V value) const {
    if constexpr (IsScalar<K>::value) {
      return Insert(Move(key), Move(value));
    } else {
      return InsertOutOfLine(Move(key), Move(value));
    }
  }
  /** InsertNew, one copy per key type (IsScalar). */
  SPINE_CG_OUTLINE int64_t InsertOutOfLine(K key, V value) const { return Insert(Move(key), Move(value)); }
  /** InsertNew's work. */
  int64_t Insert(K key, V value) const {
    Obj* o = r_.get();
    if (o->n_entries == o->cap_entries) Rebuild(o->used + 1);
    uint64_t h = Traits<K>::Hash(key);
    int64_t ix = o->n_entries++;
    new (&o->entries[ix], Place()) Entry{h, Move(key), Move(value), true};
    Slot(h, ix);
    ++o->used;
    ++o->version;
    return o->last = ix;
  }
  /** d[key] = value: overwrite (keeping the first key) or insert. */
  void Set(K key, V value) const {
    int64_t ix = Find(key);
    if (ix >= 0) {
      at(ix).value = Move(value);
    } else {
      InsertNew(Move(key), Move(value));
    }
  }
  /** Erase entry @p ix (live). */
  void EraseAt(int64_t ix) const {
    Obj* o = r_.get();
    uint64_t h = o->entries[ix].hash;
    for (uint64_t i = h & o->mask, perturb = h;; perturb >>= 5, i = (i * 5 + perturb + 1) & o->mask) {
      if (o->index[i] == ix) {
        o->index[i] = -2;
        break;
      }
    }
    o->entries[ix].~Entry();
    o->entries[ix].live = false;
    --o->used;
    ++o->version;
    o->last = -1;
  }
  /** Remove every entry. */
  SPINE_CG_OUTLINE void Clear() const {
    Obj* o = r_.get();
    for (int64_t i = 0; i < o->n_entries; ++i) {
      if (o->entries[i].live) EraseAt(i);
    }
    o->n_entries = 0;
    for (uint64_t i = 0; o->index && i <= o->mask; ++i) o->index[i] = -1;
  }

 private:
  void Slot(uint64_t h, int64_t ix) const {
    Obj* o = r_.get();
    for (uint64_t i = h & o->mask, perturb = h;; perturb >>= 5, i = (i * 5 + perturb + 1) & o->mask) {
      if (o->index[i] < 0) {
        o->index[i] = static_cast<int32_t>(ix);
        return;
      }
    }
  }
  // Compact the live entries into room for at least @p need and rebuild the index (load <= 2/3).
  SPINE_CG_OUTLINE void Rebuild(int64_t need) const {
    Obj* o = r_.get();
    if (need > 0x3fffffff) Raise(SPINE_FAULT_FALLBACK, "table too large for native code");
    int64_t cap = need * 2 < 8 ? 8 : need * 2;
    auto* fresh = static_cast<Entry*>(Alloc(sizeof(Entry) * static_cast<size_t>(cap)));
    int64_t n = 0;
    for (int64_t i = 0; i < o->n_entries; ++i) {
      if (!o->entries[i].live) continue;
      new (&fresh[n++], Place()) Entry(Move(o->entries[i]));
      o->entries[i].~Entry();
    }
    Free(o->entries);
    uint64_t size = 8;
    while (size < static_cast<uint64_t>(cap) * 3 / 2) size <<= 1;
    Free(o->index);
    o->index = static_cast<int32_t*>(Alloc(sizeof(int32_t) * size));
    for (uint64_t i = 0; i < size; ++i) o->index[i] = -1;
    o->entries = fresh, o->n_entries = n, o->cap_entries = cap, o->mask = size - 1, o->last = -1;
    for (int64_t i = 0; i < n; ++i) Slot(fresh[i].hash, i);
  }
  Ref<Obj> r_;
};

/** Raise KeyError(key) with CPython's message (repr of the key), or let CPython do it. */
template <typename K>
[[noreturn]] SPINE_CG_OUTLINE inline void RaiseKeyError(const K& key) {
  FaultText t;
  if (!Traits<K>::Repr(t, key)) Raise(SPINE_FAULT_FALLBACK, "repr of a missing key");
  t.Raise(SPINE_FAULT_KEY);
}

/** @brief A native Python dict. */
template <typename K, typename V>
class Dict : public Table<K, V> {
 public:
  /** Unset handle. */
  Dict() noexcept = default;
  /** A new empty dict. */
  static Dict New() { return Dict(Table<K, V>::New()); }

 private:
  explicit Dict(const Table<K, V>& t) : Table<K, V>(t) {}
};

/** d[k]: KeyError. */
template <typename K, typename V>
inline V dict_getitem(const Dict<K, V>& d, const K& k) {
  int64_t ix = d.Find(k);
  if (ix < 0) RaiseKeyError(k);
  return d.at(ix).value;
}
/** d.get(k, default). */
template <typename K, typename V>
inline V dict_get(const Dict<K, V>& d, const K& k, V fallback) {
  int64_t ix = d.Find(k);
  return ix < 0 ? Move(fallback) : d.at(ix).value;
}
/** d[k] = v. */
template <typename K, typename V>
inline void dict_setitem(const Dict<K, V>& d, K k, V v) {
  d.Set(Move(k), Move(v));
}
/** del d[k]: KeyError. */
template <typename K, typename V>
inline void dict_delitem(const Dict<K, V>& d, const K& k) {
  int64_t ix = d.Find(k);
  if (ix < 0) RaiseKeyError(k);
  d.EraseAt(ix);
}
/** k in d. */
template <typename K, typename V>
inline bool dict_contains(const Dict<K, V>& d, const K& k) {
  return d.Find(k) >= 0;
}
/** d.pop(k): KeyError. */
template <typename K, typename V>
inline V dict_pop(const Dict<K, V>& d, const K& k) {
  int64_t ix = d.Find(k);
  if (ix < 0) RaiseKeyError(k);
  V v(Move(d.at(ix).value));
  d.EraseAt(ix);
  return v;
}
/** d.pop(k, default). */
template <typename K, typename V>
inline V dict_pop_default(const Dict<K, V>& d, const K& k, V fallback) {
  int64_t ix = d.Find(k);
  if (ix < 0) return fallback;
  V v(Move(d.at(ix).value));
  d.EraseAt(ix);
  return v;
}
/** d.setdefault(k, default). */
template <typename K, typename V>
inline V dict_setdefault(const Dict<K, V>& d, K k, V fallback) {
  int64_t ix = d.Find(k);
  if (ix < 0) ix = d.InsertNew(Move(k), Move(fallback));
  return d.at(ix).value;
}
/** d.clear(). */
template <typename K, typename V>
inline void dict_clear(const Dict<K, V>& d) {
  d.Clear();
}
/** d.update(other): other's entries in order. */
template <typename K, typename V>
SPINE_CG_OUTLINE inline void dict_update(const Dict<K, V>& d, const Dict<K, V>& other) {
  auto* o = other.obj();
  int64_t n = o->n_entries;  // d.update(d) changes nothing and adds nothing
  for (int64_t i = 0; i < n; ++i) {
    if (o->entries[i].live) d.Set(o->entries[i].key, o->entries[i].value);
  }
}
/** d.copy(). */
template <typename K, typename V>
SPINE_CG_OUTLINE inline Dict<K, V> dict_copy(const Dict<K, V>& d) {
  Dict<K, V> out = Dict<K, V>::New();
  dict_update(out, d);
  return out;
}

/** dict: equal sizes and equal values under equal keys. */
template <typename K, typename V>
struct Traits<Dict<K, V>> {
  /** Equality. */
  static bool Eq(const Dict<K, V>& a, const Dict<K, V>& b) {
    if (a.id() == b.id()) return true;
    if (a.size() != b.size()) return false;
    auto* o = a.obj();
    for (int64_t i = 0; i < o->n_entries; ++i) {
      if (!o->entries[i].live) continue;
      int64_t ix = b.Find(o->entries[i].key);
      if (ix < 0 || !Traits<V>::Eq(o->entries[i].value, b.at(ix).value)) return false;
    }
    return true;
  }
};

/**
 * @brief Iteration over a dict's entries (keys, values or items by
 * projection P). A change of size is CPython's RuntimeError; a key
 * replaced by another at the same size makes CPython's behaviour depend
 * on its table layout, so that goes back to CPython.
 */
template <typename K, typename V, typename P>
struct DictIter {
  Dict<K, V> dict;                      /**< The dict (shared). */
  int64_t pos = 0;                      /**< Next dense slot. */
  int64_t size = dict.size();           /**< Size when iteration began. */
  uint64_t version = dict.obj()->version;  /**< Key set when iteration began. */
  typename P::template Item<K, V> cur{};   /**< Current item. */
  /** Advance; false at the end. */
  bool Next() {
    auto* o = dict.obj();
    if (o->used != size) Raise(SPINE_FAULT_RUNTIME, "dictionary changed size during iteration");
    if (o->version != version) Raise(SPINE_FAULT_FALLBACK, "dictionary keys changed during iteration");
    while (pos < o->n_entries && !o->entries[pos].live) ++pos;
    if (pos >= o->n_entries) return false;
    cur = P::Get(o->entries[pos++]);
    return true;
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_TABLE_H_
