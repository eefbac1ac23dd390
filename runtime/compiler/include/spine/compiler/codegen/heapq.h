/**
 * @file heapq.h
 * @brief heapq and bisect on a native list, with CPython's element order:
 * the same sift loops as Modules/_heapqmodule.c (the same `<` comparisons
 * in the same order, so equal-comparing but distinct values such as 0.0
 * and -0.0, and NaNs, end where CPython puts them) and the same bisection
 * as Modules/_bisectmodule.c. Native comparisons have no side effects, so
 * CPython's "list changed size" checks cannot fire here.
 */
#ifndef SPINE_COMPILER_CODEGEN_HEAPQ_H_
#define SPINE_COMPILER_CODEGEN_HEAPQ_H_

#include "spine/compiler/codegen/list.h"

namespace spine_cg {

/** _heapqmodule.c siftdown: move the item at @p pos up while it is < its parent. */
template <typename T>
inline void HeapSiftDown(const List<T>& h, int64_t start, int64_t pos) {
  while (pos > start) {
    int64_t parent = (pos - 1) >> 1;
    if (!Less(h.at(pos), h.at(parent))) break;
    T tmp(Move(h.at(pos)));
    h.at(pos) = Move(h.at(parent));
    h.at(parent) = Move(tmp);
    pos = parent;
  }
}

/** _heapqmodule.c siftup: bubble the smaller child up to a leaf, then sift down from there. */
template <typename T>
SPINE_CG_OUTLINE inline void HeapSiftUp(const List<T>& h, int64_t pos) {
  int64_t end = h.size(), start = pos, limit = end >> 1;
  while (pos < limit) {
    int64_t child = 2 * pos + 1;
    if (child + 1 < end && !Less(h.at(child), h.at(child + 1))) ++child;
    T tmp(Move(h.at(child)));
    h.at(child) = Move(h.at(pos));
    h.at(pos) = Move(tmp);
    pos = child;
  }
  HeapSiftDown(h, start, pos);
}

/** heapq.heappush(h, item). */
template <typename T>
inline void heap_push(const List<T>& h, T item) {
  h.Append(Move(item));
  HeapSiftDown(h, 0, h.size() - 1);
}

/** heapq.heappop(h). */
template <typename T>
inline T heap_pop(const List<T>& h) {
  if (h.size() == 0) Raise(SPINE_FAULT_INDEX, "index out of range");
  T last = h.PopBack();
  if (h.size() == 0) return last;
  T top(Move(h.at(0)));
  h.at(0) = Move(last);
  HeapSiftUp(h, 0);
  return top;
}

/** heapq.heapreplace(h, item): pop, then push. */
template <typename T>
inline T heap_replace(const List<T>& h, T item) {
  if (h.size() == 0) Raise(SPINE_FAULT_INDEX, "index out of range");
  T top(Move(h.at(0)));
  h.at(0) = Move(item);
  HeapSiftUp(h, 0);
  return top;
}

/** heapq.heappushpop(h, item): push, then pop (the item itself unless the top is smaller). */
template <typename T>
inline T heap_pushpop(const List<T>& h, T item) {
  if (h.size() == 0 || !Less(h.at(0), item)) return item;
  T top(Move(h.at(0)));
  h.at(0) = Move(item);
  HeapSiftUp(h, 0);
  return top;
}

/** heapq.heapify(h): every parent sifted after its children (any such order gives CPython's list). */
template <typename T>
SPINE_CG_OUTLINE inline void heap_heapify(const List<T>& h) {
  for (int64_t i = h.size() / 2 - 1; i >= 0; --i) HeapSiftUp(h, i);
}

/** bisect.bisect_left(a, x). */
template <typename T>
inline int64_t bisect_left(const List<T>& a, const T& x) {
  int64_t lo = 0, hi = a.size();
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (Less(a.at(mid), x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** bisect.bisect_right(a, x). */
template <typename T>
inline int64_t bisect_right(const List<T>& a, const T& x) {
  int64_t lo = 0, hi = a.size();
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (Less(x, a.at(mid))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** bisect.insort_left(a, x). */
template <typename T>
inline void insort_left(const List<T>& a, T x) {
  int64_t i = bisect_left(a, x);
  list_insert(a, i, Move(x));
}

/** bisect.insort_right(a, x). */
template <typename T>
inline void insort_right(const List<T>& a, T x) {
  int64_t i = bisect_right(a, x);
  list_insert(a, i, Move(x));
}

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_HEAPQ_H_
