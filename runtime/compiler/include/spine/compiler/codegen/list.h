/**
 * @file list.h
 * @brief Native list[T]: a shared, growable array of unboxed T (int64_t
 * elements are plain int64_t, not tagged values), with Python's indexing,
 * error messages and method semantics.
 */
#ifndef SPINE_COMPILER_CODEGEN_LIST_H_
#define SPINE_COMPILER_CODEGEN_LIST_H_

#include "spine/compiler/codegen/str.h"

namespace spine_cg {

/** @brief The shared storage of a list. */
template <typename T>
struct ListObj {
  int64_t rc = 1;      /**< Owner count. */
  int64_t size = 0;    /**< Elements in use. */
  int64_t cap = 0;     /**< Allocated elements. */
  T* data = nullptr;   /**< Elements [0, size) are constructed. */
  ~ListObj() {
    for (int64_t i = 0; i < size; ++i) data[i].~T();
    Free(data);
  }
};
/** A list of scalars is released inline, one of strings or containers out of line (ReleasedInline). */
template <typename T>
struct ReleasedInline<ListObj<T>> {
  static constexpr bool value = IsScalar<T>::value;  /**< Storage without elements to release. */
};

/** @brief A native Python list: copying shares the storage, as Python names do. */
template <typename T>
class List {
 public:
  /** An unset handle (a variable before its first assignment). */
  List() noexcept = default;
  /** A new empty list with room for @p cap elements. */
  static List New(int64_t cap = 0) {
    List l;
    l.r_ = Ref<ListObj<T>>::New();
    if (cap > 0) l.Reserve(cap);
    return l;
  }
  /** Element count. */
  int64_t size() const noexcept { return r_->size; }
  /** Element @p i (0 <= i < size). */
  T& at(int64_t i) const noexcept { return r_->data[i]; }
  /** Storage identity (for `is`-free aliasing checks in tests). */
  const void* id() const noexcept { return r_.get(); }
  /** Make room for @p n elements. */
  void Reserve(int64_t n) const {
    if (n > r_->cap) Grow(n);
  }
  /** Reallocate for at least @p n elements (out of line: the append loop stays small). */
  SPINE_CG_OUTLINE void Grow(int64_t n) const {
    ListObj<T>* o = r_.get();
    CheckSize(n);
    int64_t cap = o->cap * 2 > n ? o->cap * 2 : (n < 4 ? 4 : n);
    T* d = static_cast<T*>(Alloc(sizeof(T) * static_cast<size_t>(cap)));
    for (int64_t i = 0; i < o->size; ++i) {
      new (&d[i], Place()) T(Move(o->data[i]));
      o->data[i].~T();
    }
    Free(o->data);
    o->data = d, o->cap = cap;
  }
  /** list.append(v). */
  void Append(T v) const {
    ListObj<T>* o = r_.get();
    if (o->size == o->cap) Grow(o->size + 1);
    new (&o->data[o->size], Place()) T(Move(v));
    ++o->size;
  }
  /** Remove the last element (size > 0). */
  T PopBack() const {
    ListObj<T>* o = r_.get();
    T v(Move(o->data[o->size - 1]));
    o->data[--o->size].~T();
    return v;
  }
  /** Remove element @p i (in range), shifting the rest down. */
  T RemoveAt(int64_t i) const {
    ListObj<T>* o = r_.get();
    T v(Move(o->data[i]));
    for (int64_t k = i; k + 1 < o->size; ++k) o->data[k] = Move(o->data[k + 1]);
    o->data[--o->size].~T();
    return v;
  }

 private:
  Ref<ListObj<T>> r_;
};

/** Normalise Python index @p i against @p n; IndexError with @p message. */
inline int64_t CheckIndex(int64_t i, int64_t n, const char* message) {
  if (i < 0) i += n;
  if (i < 0 || i >= n) Raise(SPINE_FAULT_INDEX, message);
  return i;
}

/** lst[i]. */
template <typename T>
inline T list_getitem(const List<T>& l, int64_t i) {
  return l.at(CheckIndex(i, l.size(), "list index out of range"));
}
/** lst[i] = v. */
template <typename T>
inline void list_setitem(const List<T>& l, int64_t i, T v) {
  l.at(CheckIndex(i, l.size(), "list assignment index out of range")) = Move(v);
}
/** del lst[i]. */
template <typename T>
inline void list_delitem(const List<T>& l, int64_t i) {
  l.RemoveAt(CheckIndex(i, l.size(), "list assignment index out of range"));
}
/** lst.append(v). */
template <typename T>
inline void list_append(const List<T>& l, T v) {
  l.Append(Move(v));
}
/** lst.pop(). */
template <typename T>
inline T list_pop(const List<T>& l) {
  if (l.size() == 0) Raise(SPINE_FAULT_INDEX, "pop from empty list");
  return l.PopBack();
}
/** lst.pop(i). */
template <typename T>
inline T list_pop_at(const List<T>& l, int64_t i) {
  if (l.size() == 0) Raise(SPINE_FAULT_INDEX, "pop from empty list");
  return l.RemoveAt(CheckIndex(i, l.size(), "pop index out of range"));
}
/** lst.insert(i, v): the index is clamped, as in Python. */
template <typename T>
SPINE_CG_OUTLINE inline void list_insert(const List<T>& l, int64_t i, T v) {
  int64_t n = l.size();
  if (i < 0) i = i + n < 0 ? 0 : i + n;
  if (i > n) i = n;
  l.Append(Move(v));
  for (int64_t k = n; k > i; --k) {
    T tmp(Move(l.at(k)));
    l.at(k) = Move(l.at(k - 1));
    l.at(k - 1) = Move(tmp);
  }
}
/** lst.extend(other) (also lst += other); extending a list by itself doubles it once. */
template <typename T>
SPINE_CG_OUTLINE inline void list_extend(const List<T>& l, const List<T>& other) {
  int64_t n = other.size();
  l.Reserve(l.size() + n);
  for (int64_t i = 0; i < n; ++i) l.Append(other.at(i));
}
/** lst.clear(). */
template <typename T>
inline void list_clear(const List<T>& l) {
  while (l.size()) l.PopBack();
}
/** lst.reverse(). */
template <typename T>
inline void list_reverse(const List<T>& l) {
  for (int64_t i = 0, j = l.size() - 1; i < j; ++i, --j) {
    T tmp(Move(l.at(i)));
    l.at(i) = Move(l.at(j));
    l.at(j) = Move(tmp);
  }
}
/** lst.copy() / lst[:]. */
template <typename T>
SPINE_CG_OUTLINE inline List<T> list_copy(const List<T>& l) {
  List<T> out = List<T>::New(l.size());
  for (int64_t i = 0; i < l.size(); ++i) out.Append(l.at(i));
  return out;
}
/** Index of the first element equal to @p v, or -1. */
template <typename T>
inline int64_t ListFind(const List<T>& l, const T& v) {
  for (int64_t i = 0; i < l.size(); ++i) {
    if (Traits<T>::Eq(l.at(i), v)) return i;
  }
  return -1;
}
/** v in lst. */
template <typename T>
inline bool list_contains(const List<T>& l, const T& v) {
  return ListFind(l, v) >= 0;
}
/** lst.index(v): ValueError("<repr> is not in list"). */
template <typename T>
SPINE_CG_OUTLINE inline int64_t list_index(const List<T>& l, const T& v) {
  int64_t i = ListFind(l, v);
  if (i < 0) {
    FaultText t;
    if (!Traits<T>::Repr(t, v)) Raise(SPINE_FAULT_FALLBACK, "repr of a missing element");
    t.Add(" is not in list").Raise(SPINE_FAULT_VALUE);
  }
  return i;
}
/** lst.count(v). */
template <typename T>
SPINE_CG_OUTLINE inline int64_t list_count(const List<T>& l, const T& v) {
  int64_t n = 0;
  for (int64_t i = 0; i < l.size(); ++i) n += Traits<T>::Eq(l.at(i), v);
  return n;
}
/** lst.remove(v). */
template <typename T>
SPINE_CG_OUTLINE inline void list_remove(const List<T>& l, const T& v) {
  int64_t i = ListFind(l, v);
  if (i < 0) Raise(SPINE_FAULT_VALUE, "list.remove(x): x not in list");
  l.RemoveAt(i);
}
/** a + b. */
template <typename T>
SPINE_CG_OUTLINE inline List<T> list_concat(const List<T>& a, const List<T>& b) {
  List<T> out = List<T>::New(a.size() + b.size());
  for (int64_t i = 0; i < a.size(); ++i) out.Append(a.at(i));
  for (int64_t i = 0; i < b.size(); ++i) out.Append(b.at(i));
  return out;
}
/** lst * n (n <= 0 gives []); refused before allocating when huge. */
template <typename T>
SPINE_CG_OUTLINE inline List<T> list_repeat(const List<T>& l, int64_t n) {
  if (n <= 0 || l.size() == 0) return List<T>::New();
  int64_t total;
  if (__builtin_mul_overflow(l.size(), n, &total)) Raise(SPINE_FAULT_FALLBACK, "result too large for native code");
  CheckSize(total);
  List<T> out = List<T>::New(total);
  int64_t m = l.size();
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t i = 0; i < m; ++i) out.Append(l.at(i));
  }
  return out;
}
/** lst[start:stop:step]. */
template <typename T>
SPINE_CG_OUTLINE inline List<T> list_slice(const List<T>& l, const SliceRange& r) {
  List<T> out = List<T>::New(r.count);
  for (int64_t k = 0; k < r.count; ++k) out.Append(l.at(r.start + k * r.step));
  return out;
}

/**
 * Not vectorised, nor list_sort: at -O3 g++ vectorised the merge and copy
 * loops of a list[int] sort into a third of the module's compile time (a
 * module that sorts a list[int]: 0.45 -> 0.32 s), and the scalar loops sort
 * faster (300,000 ints, sorted both ways: 19.6 -> 15.7 ms).
 */
#define SPINE_CG_SORT_LOOPS __attribute__((optimize("no-tree-vectorize")))

/** a < b of scalars inside a sort: Python's `<`, inline. */
struct ScalarLess {
  /** a < b. */
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return Less(a, b);
  }
};

/**
 * Stable merge sort of [lo, hi) using @p tmp (same length as the list),
 * comparing with @p less: scalars with ScalarLess, everything else as
 * pointers to the elements (SortRelocating). Never
 * inlined, not even into itself: g++ -O3 inlined its recursion several levels
 * deep into every list_sort, which doubled a sorting module's compile time
 * (a module sorting a set[int]: 0.56 -> 0.38 s of CPU) for no faster sort.
 */
template <typename T, typename L>
SPINE_CG_OUTLINE SPINE_CG_SORT_LOOPS inline void MergeSort(T* a, T* tmp, int64_t lo, int64_t hi, L less) {
  if (hi - lo < 2) return;
  if (hi - lo <= 16) {  // insertion sort: stable, fast on short runs
    for (int64_t i = lo + 1; i < hi; ++i) {
      for (int64_t j = i; j > lo && less(a[j], a[j - 1]); --j) {
        T t(Move(a[j]));
        a[j] = Move(a[j - 1]);
        a[j - 1] = Move(t);
      }
    }
    return;
  }
  int64_t mid = lo + (hi - lo) / 2;
  MergeSort(a, tmp, lo, mid, less);
  MergeSort(a, tmp, mid, hi, less);
  if (!less(a[mid], a[mid - 1])) return;
  int64_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) tmp[k++] = less(a[j], a[i]) ? Move(a[j++]) : Move(a[i++]);
  while (i < mid) tmp[k++] = Move(a[i++]);
  while (j < hi) tmp[k++] = Move(a[j++]);
  for (k = lo; k < hi; ++k) a[k] = Move(tmp[k]);
}

/** True if sorting cannot be reproduced exactly (NaN breaks the total order CPython's sort assumes). */
template <typename T>
inline bool HasNan(const List<T>&) {
  return false;
}
/** float lists: any NaN. */
inline bool HasNan(const List<double>& l) {
  for (int64_t i = 0; i < l.size(); ++i) {
    if (l.at(i) != l.at(i)) return true;
  }
  return false;
}

/** a < b for the elements of type T behind @p a and @p b (SortRelocating). */
using SortLessFn = bool (*)(const void* a, const void* b);
/** SortLessFn of T: one out-of-line copy per type. */
template <typename T>
SPINE_CG_OUTLINE bool SortLessAt(const void* a, const void* b) {
  return Less(*static_cast<const T*>(a), *static_cast<const T*>(b));
}

/**
 * The stable sort of @p n elements of @p size bytes at @p data, for every
 * element type but scalars, one copy per module: it sorts pointers to the
 * elements and then moves each element's bytes to its place (strings,
 * tuples, handles and boxes hold no pointer into themselves). A copy of the
 * sort per element type, moving tuples of strings with their reference
 * counts, was a large part of the compile time of modules that sort such
 * lists. @p reverse sorts as CPython's reverse=True does (reverse, stable
 * sort, reverse). A comparison that raises leaves the elements as they were.
 */
SPINE_CG_OUTLINE inline void SortRelocating(void* data, int64_t n, size_t size, SortLessFn less, bool reverse) {
  struct Buffers {
    const void** order = nullptr;
    const void** tmp = nullptr;
    ~Buffers() {
      Free(order);
      Free(tmp);
    }
  } b;
  b.order = static_cast<const void**>(Alloc(sizeof(void*) * static_cast<size_t>(n)));
  b.tmp = static_cast<const void**>(Alloc(sizeof(void*) * static_cast<size_t>(n)));
  char* bytes = static_cast<char*>(data);
  for (int64_t i = 0; i < n; ++i) b.order[i] = bytes + static_cast<size_t>(reverse ? n - 1 - i : i) * size;
  MergeSort(b.order, b.tmp, 0, n, less);
  char* sorted = static_cast<char*>(Alloc(size * static_cast<size_t>(n)));
  for (int64_t i = 0; i < n; ++i) {
    __builtin_memcpy(sorted + static_cast<size_t>(reverse ? n - 1 - i : i) * size, b.order[i], size);
  }
  __builtin_memcpy(data, sorted, size * static_cast<size_t>(n));
  Free(sorted);
}

/**
 * lst.sort() / lst.sort(reverse=True). Any stable sort gives CPython's
 * result for a total order; reverse keeps equal elements in their original
 * order, as CPython's (reverse, stable sort, reverse). Scalars are sorted
 * in place by MergeSort, inline comparisons and all; other elements by
 * SortRelocating.
 */
template <typename T>
SPINE_CG_OUTLINE SPINE_CG_SORT_LOOPS inline void list_sort(const List<T>& l, bool reverse) {
  if (HasNan(l)) Raise(SPINE_FAULT_FALLBACK, "sorting NaN");
  int64_t n = l.size();
  if (n < 2) return;
  if constexpr (!IsScalar<T>::value) {
    SortRelocating(&l.at(0), n, sizeof(T), &SortLessAt<T>, reverse);
  } else {
    if (reverse) list_reverse(l);
    T* tmp = static_cast<T*>(Alloc(sizeof(T) * static_cast<size_t>(n)));
    for (int64_t i = 0; i < n; ++i) new (&tmp[i], Place()) T();
    MergeSort(&l.at(0), tmp, 0, n, ScalarLess());
    for (int64_t i = 0; i < n; ++i) tmp[i].~T();
    Free(tmp);
    if (reverse) list_reverse(l);
  }
}
/** sorted(lst[, reverse]). */
template <typename T>
inline List<T> list_sorted(const List<T>& l, bool reverse) {
  List<T> out = list_copy(l);
  list_sort(out, reverse);
  return out;
}

/** min(lst) / max(lst): CPython's loop (keep the first, replace on strict </>). */
template <typename T>
SPINE_CG_OUTLINE inline T list_minmax(const List<T>& l, bool is_max) {
  if (l.size() == 0) Raise(SPINE_FAULT_VALUE, is_max ? "max() arg is an empty sequence" : "min() arg is an empty sequence");
  T best = l.at(0);
  for (int64_t i = 1; i < l.size(); ++i) {
    if (is_max ? Less(best, l.at(i)) : Less(l.at(i), best)) best = l.at(i);
  }
  return best;
}
/** sum(list[int]), checked. */
inline int64_t list_sum(const List<int64_t>& l, int64_t start) {
  for (int64_t i = 0; i < l.size(); ++i) {
    if (__builtin_add_overflow(start, l.at(i), &start)) Overflow();
  }
  return start;
}
/** sum(list[float], start): left to right, as CPython 3.11. */
inline double list_sum(const List<double>& l, double start) {
  for (int64_t i = 0; i < l.size(); ++i) start += l.at(i);
  return start;
}

/** list. */
template <typename T>
struct Traits<List<T>> {
  /** Element-wise equality. */
  static bool Eq(const List<T>& a, const List<T>& b) {
    if (a.id() == b.id()) return true;
    if (a.size() != b.size()) return false;
    for (int64_t i = 0; i < a.size(); ++i) {
      if (!Traits<T>::Eq(a.at(i), b.at(i))) return false;
    }
    return true;
  }
  /** Lexicographic order: the first unequal elements decide, then the lengths. */
  static int Cmp(const List<T>& a, const List<T>& b) {
    int64_t n = a.size() < b.size() ? a.size() : b.size();
    for (int64_t i = 0; i < n; ++i) {
      int order;
      if (ElementOrder(a.at(i), b.at(i), &order)) return order;
    }
    return a.size() < b.size() ? -1 : a.size() > b.size();
  }
};

/** @brief Iteration over a list: re-checks the length every step, as CPython's list iterator. */
template <typename T>
struct ListIter {
  List<T> list;    /**< The list (shared). */
  int64_t i = 0;   /**< Next index. */
  T cur{};         /**< Current element. */
  /** Advance; false at the end. */
  bool Next() {
    if (i >= list.size()) return false;
    cur = list.at(i++);
    return true;
  }
};

/** @brief Iteration over the characters of a str. */
struct StrIter {
  Str s;            /**< The string. */
  int64_t off = 0;  /**< Next byte offset. */
  Str cur;          /**< Current character. */
  /** Advance; false at the end. */
  bool Next() {
    if (off >= s.bytes()) return false;
    int len;
    DecodeAt(s.data(), off, &len);
    cur = len == 1 ? Str::Char(static_cast<unsigned char>(s.data()[off])) : s.Sub(off, len, 0);
    off += len;
    return true;
  }
};

/** s.split(): runs of whitespace separate, no empty parts. */
SPINE_CG_OUTLINE inline List<Str> str_split_ws(const Str& s) {
  List<Str> out = List<Str>::New();
  int64_t i = 0, n = s.bytes();
  int ascii = s.Ascii() ? 1 : -1;
  while (i < n) {
    int len;
    while (i < n && IsSpaceCp(DecodeAt(s.data(), i, &len))) i += len;
    if (i >= n) break;
    int64_t b = i;
    while (i < n && !IsSpaceCp(DecodeAt(s.data(), i, &len))) i += len;
    out.Append(s.Sub(b, i - b, ascii));
  }
  return out;
}
/** s.split(sep): ValueError("empty separator") for "". */
SPINE_CG_OUTLINE inline List<Str> str_split(const Str& s, const Str& sep) {
  if (sep.bytes() == 0) Raise(SPINE_FAULT_VALUE, "empty separator");
  List<Str> out = List<Str>::New();
  int ascii = s.Ascii() ? 1 : -1;
  int64_t prev = 0;
  for (int64_t i = FindBytes(s, sep, 0); i >= 0; i = FindBytes(s, sep, prev)) {
    out.Append(s.Sub(prev, i - prev, ascii));
    prev = i + sep.bytes();
  }
  out.Append(s.Sub(prev, s.bytes() - prev, ascii));
  return out;
}
/** sep.join(parts). */
SPINE_CG_OUTLINE inline Str str_join(const Str& sep, const List<Str>& parts) {
  int64_t n = parts.size();
  if (n == 0) return Str();
  if (n == 1) return parts.at(0);
  StrBuilder b;
  for (int64_t i = 0; i < n; ++i) {
    if (i) b.Add(sep);
    b.Add(parts.at(i));
  }
  return b.Finish();
}
/** list(s): the characters of a str. */
SPINE_CG_OUTLINE inline List<Str> str_chars(const Str& s) {
  List<Str> out = List<Str>::New(s.bytes());
  StrIter it{s, 0, Str()};
  while (it.Next()) out.Append(it.cur);
  return out;
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_LIST_H_
