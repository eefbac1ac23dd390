/**
 * @file pyset.h
 * @brief Native set[T] whose table is CPython 3.11's (Objects/setobject.c)
 * slot for slot: the same hashes (hash(x) as CPython computes it), the same
 * table size, probing (LINEAR_PROBES 9, PERTURB_SHIFT 5), dummies left by
 * discards, fill/used, resize rule and re-insertion order, pop's finger,
 * and the loops of update/copy/|/&/-/^. Iterating a set is a walk over the
 * slots, so native iteration order, `pop()` and a set handed back to
 * Python (built with the same table, boundary.h) are CPython's by
 * construction, not by sorting or replaying.
 */
#ifndef SPINE_COMPILER_CODEGEN_PYSET_H_
#define SPINE_COMPILER_CODEGEN_PYSET_H_

#include "spine/compiler/codegen/tuple.h"

namespace spine_cg {

inline const SpineRuntimeApi& Api();  // boundary.h: the call's services (CPython's str hash among them)

/** CPython's hash(x) per element type (never -1). */
template <typename T>
struct PyHash;

/** int: |x| mod 2**61-1 with x's sign; -1 becomes -2 (long_hash). */
template <>
struct PyHash<int64_t> {
  /** hash(x). */
  static int64_t Of(int64_t x) {
    const uint64_t modulus = (uint64_t(1) << 61) - 1;
    uint64_t magnitude = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    int64_t h = static_cast<int64_t>(magnitude % modulus);
    if (x < 0) h = -h;
    return h == -1 ? -2 : h;
  }
};

/** bool: 0 or 1. */
template <>
struct PyHash<bool> {
  /** hash(x). */
  static int64_t Of(bool x) { return x ? 1 : 0; }
};

/** str: the interpreter's own (randomised per process), through the call's services. */
template <>
struct PyHash<Str> {
  /** hash(s). */
  static int64_t Of(const Str& s) { return Api().hash_str(s.data(), s.bytes()); }
};

/** @brief 3.11's xxHash-based tuplehash, fed one element hash (lane) at a time. */
class TupleHash {
 public:
  /** Fold the next element's hash in. */
  void Add(int64_t lane) {
    acc_ += static_cast<uint64_t>(lane) * kPrime2;
    acc_ = (acc_ << 31) | (acc_ >> 33);
    acc_ *= kPrime1;
  }
  /** hash(t) of a tuple of @p length elements, all added. */
  int64_t Done(uint64_t length) const {
    uint64_t acc = acc_ + (length ^ (kPrime5 ^ 3527539ULL));
    return acc == ~uint64_t(0) ? 1546275796 : static_cast<int64_t>(acc);
  }

 private:
  static constexpr uint64_t kPrime1 = 11400714785074694791ULL;  /**< _PyHASH_XXPRIME_1. */
  static constexpr uint64_t kPrime2 = 14029467366897019727ULL;  /**< _PyHASH_XXPRIME_2. */
  static constexpr uint64_t kPrime5 = 2870177450012600261ULL;   /**< _PyHASH_XXPRIME_5. */
  uint64_t acc_ = kPrime5;
};

/** tuple: tuplehash over the elements' hashes. */
template <typename... T>
struct PyHash<Tuple<T...>> {
  /** Fold the elements' lanes into @p acc. */
  static void Lanes(const Tuple<>&, TupleHash&) {}
  /** Head, then tail. */
  template <typename H, typename... R>
  static void Lanes(const Tuple<H, R...>& t, TupleHash& acc) {
    acc.Add(PyHash<H>::Of(t.head));
    Lanes(t.tail, acc);
  }
  /** hash(t). */
  static int64_t Of(const Tuple<T...>& t) {
    TupleHash acc;
    Lanes(t, acc);
    return acc.Done(sizeof...(T));
  }
};

/** @brief Storage of a set: CPython's PySetObject fields. */
template <typename T>
struct SetObj {
  /** One slot: unused (hash 0), active, or dummy (hash -1) as in CPython. */
  struct Slot {
    int64_t hash = 0;    /**< The key's hash (0 unused, -1 dummy). */
    uint8_t state = 0;   /**< kUnused, kActive or kDummy (a key may hash to 0). */
    T key{};             /**< Meaningful while active; reset when discarded. */
  };
  int64_t rc = 1;          /**< Owner count. */
  Slot* table = nullptr;   /**< mask + 1 slots. */
  int64_t mask = 0;        /**< Table size - 1. */
  int64_t fill = 0;        /**< Active + dummy slots. */
  int64_t used = 0;        /**< Active slots. */
  int64_t finger = 0;      /**< Where pop() starts looking. */
  ~SetObj() { Destroy(table, mask); }
  /** Release a table of @p mask + 1 slots. */
  static void Destroy(Slot* t, int64_t mask) {
    if (t == nullptr) return;
    for (int64_t i = 0; i <= mask; ++i) t[i].~Slot();
    Free(t);
  }
  /** A table of @p size unused slots. */
  static Slot* Fresh(int64_t size) {
    auto* t = static_cast<Slot*>(Alloc(sizeof(Slot) * static_cast<size_t>(size)));
    for (int64_t i = 0; i < size; ++i) new (&t[i], Place()) Slot();
    return t;
  }
};
/** A set of scalars is released inline, one of strings or tuples out of line (ReleasedInline). */
template <typename T>
struct ReleasedInline<SetObj<T>> {
  static constexpr bool value = IsScalar<T>::value;  /**< Storage without members to release. */
};

constexpr uint8_t kUnused = 0;  /**< Slot never used since the last resize. */
constexpr uint8_t kActive = 1;  /**< Slot holding a key. */
constexpr uint8_t kDummy = 2;   /**< Slot whose key was discarded. */
constexpr int64_t kLinearProbes = 9;  /**< setobject.c's LINEAR_PROBES. */
constexpr int kPerturbShift = 5;      /**< setobject.c's PERTURB_SHIFT. */
constexpr int64_t kSetMinSize = 8;    /**< PySet_MINSIZE. */

/** @brief A native Python set (a shared handle, as Python names are). */
template <typename T>
class Set {
 public:
  using Obj = SetObj<T>;           /**< Storage. */
  using Slot = typename Obj::Slot; /**< Table slot. */
  /** Unset handle. */
  Set() noexcept = default;
  /** A new empty set (make_new_set: the 8-slot table). */
  static Set New() {
    Set s;
    s.r_ = Ref<Obj>::New();
    s.r_->table = Obj::Fresh(kSetMinSize);
    s.r_->mask = kSetMinSize - 1;
    return s;
  }
  /** A set with an empty table of @p mask + 1 slots and the given counters (boundary: a copy of CPython's). */
  static Set WithTable(int64_t mask, int64_t fill, int64_t used, int64_t finger) {
    Set s;
    s.r_ = Ref<Obj>::New();
    s.r_->table = Obj::Fresh(mask + 1);
    s.r_->mask = mask, s.r_->fill = fill, s.r_->used = used, s.r_->finger = finger;
    return s;
  }
  /** len(s). */
  int64_t size() const noexcept { return r_->used; }
  /** Storage identity. */
  const void* id() const noexcept { return r_.get(); }
  /** Raw storage. */
  Obj* obj() const noexcept { return r_.get(); }

  /** set_lookkey: the active slot holding @p key, or -1. */
  int64_t Find(const T& key, int64_t hash) const {
    Obj* o = r_.get();
    uint64_t mask = static_cast<uint64_t>(o->mask), perturb = static_cast<uint64_t>(hash);
    uint64_t i = perturb & mask;
    for (;;) {
      int64_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (uint64_t j = i;; ++j) {
        const Slot& e = o->table[j];
        if (e.state == kUnused) return -1;
        if (e.state == kActive && e.hash == hash && Traits<T>::Eq(e.key, key)) return static_cast<int64_t>(j);
        if (probes-- == 0) break;
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  /** key in s. */
  bool Contains(const T& key) const { return Find(key, PyHash<T>::Of(key)) >= 0; }

  /** set_add_entry: the last dummy on the probe path is reused; a new slot may resize. */
  void Add(T key, int64_t hash) const {
    if constexpr (IsScalar<T>::value) {
      AddEntry(Move(key), hash);
    } else {
      AddOutOfLine(Move(key), hash);
    }
  }
  /** Add, one copy per element type (IsScalar). */
  SPINE_CG_OUTLINE void AddOutOfLine(T key, int64_t hash) const { AddEntry(Move(key), hash); }
  /** Add's work. */
  void AddEntry(T key, int64_t hash) const {
    Obj* o = r_.get();
    uint64_t mask = static_cast<uint64_t>(o->mask), perturb = static_cast<uint64_t>(hash);
    uint64_t i = perturb & mask;
    Slot* freeslot = nullptr;
    for (;;) {
      int64_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (uint64_t j = i;; ++j) {
        Slot& e = o->table[j];
        if (e.state == kUnused) {
          if (freeslot != nullptr) {
            Put(*freeslot, Move(key), hash);
            ++o->used;
            return;
          }
          Put(e, Move(key), hash);
          ++o->fill;
          ++o->used;
          if (static_cast<uint64_t>(o->fill) * 5 < mask * 3) return;
          Resize(o->used > 50000 ? o->used * 2 : o->used * 4);
          return;
        }
        if (e.state == kActive) {
          if (e.hash == hash && Traits<T>::Eq(e.key, key)) return;
        } else {
          freeslot = &e;  // CPython keeps the last dummy it passes
        }
        if (probes-- == 0) break;
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  /** s.add(key). */
  void Add(T key) const {
    int64_t h = PyHash<T>::Of(key);
    Add(Move(key), h);
  }
  /** set_discard_entry: true when @p key was there (its slot becomes a dummy). */
  bool Discard(const T& key, int64_t hash) const {
    int64_t ix = Find(key, hash);
    if (ix < 0) return false;
    Kill(r_->table[ix]);
    --r_->used;
    return true;
  }
  /** set_pop: from the finger on, wrapping; KeyError on an empty set. */
  T Pop() const {
    Obj* o = r_.get();
    if (o->used == 0) Raise(SPINE_FAULT_KEY, "'pop from an empty set'");
    int64_t i = o->finger & o->mask;
    while (o->table[i].state != kActive) {
      if (++i > o->mask) i = 0;
    }
    T key(Move(o->table[i].key));
    Kill(o->table[i]);
    --o->used;
    o->finger = i + 1;
    return key;
  }
  /** set_clear_internal: back to an empty 8-slot table (the finger stays). */
  void Clear() const {
    Obj* o = r_.get();
    Slot* old = o->table;
    int64_t old_mask = o->mask;
    o->table = Obj::Fresh(kSetMinSize);
    o->mask = kSetMinSize - 1, o->fill = 0, o->used = 0;
    Obj::Destroy(old, old_mask);
  }
  /** set_table_resize: the smallest power of two above @p minused, active slots re-inserted in slot order. */
  SPINE_CG_OUTLINE void Resize(int64_t minused) const {
    Obj* o = r_.get();
    int64_t size = kSetMinSize;
    while (size <= minused) size <<= 1;
    if (size > (int64_t(1) << 40)) Raise(SPINE_FAULT_FALLBACK, "set too large for native code");
    if (size == kSetMinSize && o->mask == kSetMinSize - 1 && o->fill == o->used) return;  // nothing to purge
    Slot* old = o->table;
    int64_t old_mask = o->mask;
    o->table = Obj::Fresh(size);
    o->mask = size - 1;
    for (int64_t i = 0; i <= old_mask; ++i) {
      if (old[i].state == kActive) InsertClean(Move(old[i].key), old[i].hash);
    }
    o->fill = o->used;
    Obj::Destroy(old, old_mask);
  }
  /** set_insert_clean: into the first unused slot of the probe path (no dummies, key absent). */
  void InsertClean(T key, int64_t hash) const {
    Obj* o = r_.get();
    uint64_t mask = static_cast<uint64_t>(o->mask), perturb = static_cast<uint64_t>(hash);
    uint64_t i = perturb & mask;
    for (;;) {
      if (o->table[i].state == kUnused) return Put(o->table[i], Move(key), hash);
      if (i + kLinearProbes <= mask) {
        for (uint64_t j = i + 1; j <= i + kLinearProbes; ++j) {
          if (o->table[j].state == kUnused) return Put(o->table[j], Move(key), hash);
        }
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  /** set_merge: @p other's keys in its slot order (a copy of its table when this one is empty and alike). */
  SPINE_CG_OUTLINE void Merge(const Set& other) const {
    Obj* o = r_.get();
    Obj* p = other.obj();
    if (o == p || p->used == 0) return;
    if ((o->fill + p->used) * 5 >= o->mask * 3) Resize((o->used + p->used) * 2);
    if (o->fill == 0 && o->mask == p->mask && p->fill == p->used) {
      for (int64_t i = 0; i <= p->mask; ++i) {
        if (p->table[i].state == kActive) Put(o->table[i], p->table[i].key, p->table[i].hash);
      }
      o->fill = p->fill, o->used = p->used;
      return;
    }
    if (o->fill == 0) {
      o->fill = p->used, o->used = p->used;
      for (int64_t i = 0; i <= p->mask; ++i) {
        if (p->table[i].state == kActive) InsertClean(p->table[i].key, p->table[i].hash);
      }
      return;
    }
    for (int64_t i = 0; i <= p->mask; ++i) {
      if (p->table[i].state == kActive) Add(p->table[i].key, p->table[i].hash);
    }
  }
  /** Put an active key in slot @p i (boundary: rebuilding CPython's table). */
  void PlaceActive(int64_t i, T key, int64_t hash) const { Put(r_->table[i], Move(key), hash); }
  /** Mark slot @p i a dummy (boundary). */
  void PlaceDummy(int64_t i) const { r_->table[i].state = kDummy, r_->table[i].hash = -1; }

 private:
  static void Put(Slot& e, T key, int64_t hash) {
    e.key = Move(key);
    e.hash = hash;
    e.state = kActive;
  }
  static void Kill(Slot& e) {
    e.key = T{};  // the key's references go now, as CPython's Py_DECREF
    e.hash = -1;
    e.state = kDummy;
  }
  Ref<Obj> r_;
};

/** set_next over a set's slots: calls @p f(key, hash) for each active slot, in table order. */
template <typename T, typename F>
inline void ForEachSlot(const Set<T>& s, F&& f) {
  auto* o = s.obj();
  for (int64_t i = 0; i <= o->mask; ++i) {
    if (o->table[i].state == kActive) f(o->table[i].key, o->table[i].hash);
  }
}


/** s.add(v). */
template <typename T>
inline void set_add(const Set<T>& s, T v) {
  s.Add(Move(v));
}
/** v in s. */
template <typename T>
inline bool set_contains(const Set<T>& s, const T& v) {
  return s.Contains(v);
}
/** s.discard(v). */
template <typename T>
inline void set_discard(const Set<T>& s, const T& v) {
  s.Discard(v, PyHash<T>::Of(v));
}
/** s.remove(v): KeyError. */
template <typename T>
inline void set_remove(const Set<T>& s, const T& v) {
  if (!s.Discard(v, PyHash<T>::Of(v))) RaiseKeyError(v);
}
/** s.pop(): KeyError('pop from an empty set'). */
template <typename T>
inline T set_pop(const Set<T>& s) {
  return s.Pop();
}
/** s.clear(). */
template <typename T>
inline void set_clear(const Set<T>& s) {
  s.Clear();
}
/** s.copy() / set(s): set_merge into a new set. */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_copy(const Set<T>& s) {
  Set<T> out = Set<T>::New();
  out.Merge(s);
  return out;
}
/** set(lst): each element added in order. */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_from_list(const List<T>& l) {
  Set<T> out = Set<T>::New();
  for (int64_t i = 0; i < l.size(); ++i) out.Add(l.at(i));
  return out;
}
/**
 * The frozenset constant CPython compiles a display of constants into: the
 * items added in order make a first frozenset, and the compiler's constant
 * merging rebuilds it from that one's iteration order. @p items is the first.
 * A display that is only iterated (`for x in {1, 2}`) is iterated as this.
 */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_frozen(const Set<T>& items) {
  Set<T> rebuilt = Set<T>::New();
  ForEachSlot(items, [&](const T& key, int64_t hash) { rebuilt.Add(key, hash); });
  return rebuilt;
}
/**
 * A set display CPython folds into a frozenset constant: the items added in
 * order make a first frozenset, the compiler's constant merging rebuilds it
 * from that one's iteration order, and running the display merges the
 * result into a new set (BUILD_SET 0; SET_UPDATE). @p items is the first.
 */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_folded(const Set<T>& items) {
  Set<T> out = Set<T>::New();
  out.Merge(set_frozen(items));
  return out;
}
/** set(d) of a dict's keys (in order): one resize for the dict's size first, then the adds. */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_from_keys(const List<T>& keys) {
  Set<T> out = Set<T>::New();
  auto* o = out.obj();
  int64_t n = keys.size();
  if ((o->fill + n) * 5 >= o->mask * 3) out.Resize((o->used + n) * 2);
  for (int64_t i = 0; i < n; ++i) out.Add(keys.at(i));
  return out;
}
/** s.update(lst). */
template <typename T>
SPINE_CG_OUTLINE inline void set_update_list(const Set<T>& s, const List<T>& l) {
  for (int64_t i = 0; i < l.size(); ++i) s.Add(l.at(i));
}
/** s.update(t) / s |= t. */
template <typename T>
inline void set_update_set(const Set<T>& s, const Set<T>& t) {
  s.Merge(t);
}
/** s | t (set_or: a copy of s, then t merged in). */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_union(const Set<T>& s, const Set<T>& t) {
  Set<T> out = set_copy(s);
  if (s.id() != t.id()) out.Merge(t);
  return out;
}
/** s & t (set_intersection: the smaller set's slots, looked up in the larger). */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_intersection(const Set<T>& s, const Set<T>& t) {
  if (s.id() == t.id()) return set_copy(s);
  Set<T> out = Set<T>::New();
  const Set<T>& big = t.size() > s.size() ? t : s;
  const Set<T>& small = t.size() > s.size() ? s : t;
  ForEachSlot(small, [&](const T& key, int64_t hash) {
    if (big.Find(key, hash) >= 0) out.Add(key, hash);
  });
  return out;
}
/** set_difference_update_internal: t's keys discarded from s, then dummies purged past a quarter. */
template <typename T>
SPINE_CG_OUTLINE inline void set_difference_update(const Set<T>& s, const Set<T>& t) {
  if (s.id() == t.id()) return s.Clear();
  Set<T> other = (t.size() >> 3) > s.size() ? set_intersection(s, t) : t;
  ForEachSlot(other, [&](const T& key, int64_t hash) { s.Discard(key, hash); });
  auto* o = s.obj();
  if (static_cast<uint64_t>(o->fill - o->used) <= static_cast<uint64_t>(o->mask) / 4) return;
  s.Resize(o->used > 50000 ? o->used * 2 : o->used * 4);
}
/** s - t (set_difference: copy-and-discard when s is over four times t, else s's slots filtered). */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_difference(const Set<T>& s, const Set<T>& t) {
  if ((s.size() >> 2) > t.size()) {
    Set<T> out = set_copy(s);
    set_difference_update(out, t);
    return out;
  }
  Set<T> out = Set<T>::New();
  ForEachSlot(s, [&](const T& key, int64_t hash) {
    if (t.Find(key, hash) < 0) out.Add(key, hash);
  });
  return out;
}
/** s ^= t (set_symmetric_difference_update: t's slots, each discarded or else added). */
template <typename T>
SPINE_CG_OUTLINE inline void set_symmetric_difference_update(const Set<T>& s, const Set<T>& t) {
  if (s.id() == t.id()) return s.Clear();
  ForEachSlot(t, [&](const T& key, int64_t hash) {
    if (!s.Discard(key, hash)) s.Add(key, hash);
  });
}
/** s ^ t (set_symmetric_difference: a copy of t, updated with s). */
template <typename T>
SPINE_CG_OUTLINE inline Set<T> set_symmetric_difference(const Set<T>& s, const Set<T>& t) {
  Set<T> out = set_copy(t);
  set_symmetric_difference_update(out, s);
  return out;
}
/** s &= t (set_intersection_update: the intersection's table replaces s's). */
template <typename T>
SPINE_CG_OUTLINE inline void set_intersection_update(const Set<T>& s, const Set<T>& t) {
  Set<T> tmp = set_intersection(s, t);
  auto *a = s.obj(), *b = tmp.obj();
  auto* table = a->table;
  int64_t mask = a->mask, fill = a->fill, used = a->used;
  a->table = b->table, a->mask = b->mask, a->fill = b->fill, a->used = b->used;
  b->table = table, b->mask = mask, b->fill = fill, b->used = used;
}
/** sorted(s) (order-free). */
template <typename T>
SPINE_CG_OUTLINE inline List<T> set_sorted(const Set<T>& s, bool reverse) {
  List<T> out = List<T>::New(s.size());
  ForEachSlot(s, [&](const T& key, int64_t) { out.Append(key); });
  list_sort(out, reverse);
  return out;
}

/** set: equal sizes and every member of one in the other. */
template <typename T>
struct Traits<Set<T>> {
  /** Equality. */
  static bool Eq(const Set<T>& a, const Set<T>& b) {
    if (a.id() == b.id()) return true;
    if (a.size() != b.size()) return false;
    bool all = true;
    ForEachSlot(a, [&](const T& key, int64_t hash) { all = all && b.Find(key, hash) >= 0; });
    return all;
  }
};

/**
 * @brief Iteration over a set (setiter_iternext): the slots in order from
 * a position; a change of size is CPython's RuntimeError, a change at the
 * same size goes on over the current table exactly as CPython's does.
 */
template <typename T>
struct SetIter {
  Set<T> set;                  /**< The set (shared). */
  int64_t pos = 0;             /**< Next slot. */
  int64_t used = set.size();   /**< Size when iteration began. */
  T cur{};                     /**< Current key. */
  /** Advance; false at the end. */
  bool Next() {
    auto* o = set.obj();
    if (o->used != used) Raise(SPINE_FAULT_RUNTIME, "Set changed size during iteration");
    while (pos <= o->mask && o->table[pos].state != kActive) ++pos;
    if (pos > o->mask) return false;
    cur = o->table[pos++].key;
    return true;
  }
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_PYSET_H_
