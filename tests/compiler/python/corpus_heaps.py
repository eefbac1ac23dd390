"""heapq, bisect and float sums as their authors write them: heap sort,
top-k, Dijkstra, k-way merge, running medians, grade tables, dot products.
Each is compiled natively and compared with CPython on its own answers,
element order included (tests/compiler/python/test_heaps.py)."""
import bisect
import heapq
from bisect import bisect_left, insort
from heapq import heappop, heappush
from typing import List, Tuple

INF = 10 ** 18


def heap_sort(xs: List[int]) -> List[int]:
    heap: List[int] = []
    for x in xs:
        heappush(heap, x)
    return [heappop(heap) for _ in range(len(heap))]


def heapify_order(xs: List[float]) -> List[float]:
    h = list(xs)
    heapq.heapify(h)
    return h


def heap_after_pops(xs: List[float], k: int) -> List[float]:
    h = list(xs)
    heapq.heapify(h)
    out: List[float] = []
    for _ in range(k):
        out.append(heapq.heappop(h))
    return out + h


def top_k_largest(xs: List[int], k: int) -> List[int]:
    if k <= 0:
        return []
    heap: List[int] = []
    for x in xs:
        if len(heap) < k:
            heapq.heappush(heap, x)
        else:
            heapq.heappushpop(heap, x)
    return sorted(heap, reverse=True)


def replace_smallest(xs: List[str], word: str) -> Tuple[str, List[str]]:
    h = list(xs)
    heapq.heapify(h)
    old = heapq.heapreplace(h, word)
    return old, h


def pushpop_all(xs: List[float], ys: List[float]) -> List[float]:
    h = list(xs)
    heapq.heapify(h)
    out: List[float] = []
    for y in ys:
        out.append(heapq.heappushpop(h, y))
    return out + h


def kth_smallest(xs: List[int], k: int) -> int:
    if k < 1 or k > len(xs):
        raise IndexError(f"k={k} is out of range for {len(xs)} items")
    h = xs[:]
    heapq.heapify(h)
    for _ in range(k - 1):
        heapq.heappop(h)
    return h[0]


def largest_three(xs: List[int]) -> List[int]:
    return heapq.nlargest(3, xs)


def smallest_words(words: List[str], k: int) -> List[str]:
    return heapq.nsmallest(k, words)


def dijkstra(n: int, edges: List[Tuple[int, int]]) -> List[int]:
    if n <= 0:
        return []
    adj: List[List[Tuple[int, int]]] = [[] for _ in range(n)]
    for i, (a, b) in enumerate(edges):
        w = (a * 7 + b * 3 + i) % 11 + 1
        adj[a % n].append((b % n, w))
        adj[b % n].append((a % n, w))
    dist = [INF] * n
    dist[0] = 0
    heap: List[Tuple[int, int]] = [(0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def merge_sorted(runs: List[List[int]]) -> List[int]:
    heap: List[Tuple[int, int, int]] = []
    for i, run in enumerate(runs):
        if run:
            heapq.heappush(heap, (run[0], i, 0))
    out: List[int] = []
    while heap:
        value, i, j = heapq.heappop(heap)
        out.append(value)
        if j + 1 < len(runs[i]):
            heapq.heappush(heap, (runs[i][j + 1], i, j + 1))
    return out


def running_medians(xs: List[int]) -> List[float]:
    low: List[int] = []
    high: List[int] = []
    out: List[float] = []
    for x in xs:
        if not low or x <= -low[0]:
            heapq.heappush(low, -x)
        else:
            heapq.heappush(high, x)
        if len(low) > len(high) + 1:
            heapq.heappush(high, -heapq.heappop(low))
        elif len(high) > len(low):
            heapq.heappush(low, -heapq.heappop(high))
        if len(low) > len(high):
            out.append(float(-low[0]))
        else:
            out.append((-low[0] + high[0]) / 2)
    return out


def pop_empty(xs: List[int]) -> int:
    h = list(xs)
    total = 0
    while True:
        total += heapq.heappop(h)


def replace_empty(xs: List[int]) -> int:
    h = list(xs)
    return heapq.heapreplace(h, 5)


def grade(score: int) -> str:
    breakpoints = [60, 70, 80, 90]
    return "FDCBA"[bisect.bisect(breakpoints, score)]


def sorted_insert(xs: List[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        insort(out, x)
    return out


def insert_left_floats(xs: List[float]) -> List[float]:
    out: List[float] = []
    for x in xs:
        bisect.insort_left(out, x)
    return out


def count_in_range(xs: List[int], lo: int, hi: int) -> int:
    s = sorted(xs)
    return bisect.bisect_right(s, hi) - bisect_left(s, lo)


def dot(a: List[float], b: List[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def mean(xs: List[float]) -> float:
    if not xs:
        raise ValueError("mean of no values")
    return sum(xs) / len(xs)


def total_of(xs: List[float]) -> float:
    return sum(xs)


def weighted_total(xs: List[float], scale: float) -> float:
    return sum(x * scale for x in xs if x == x)
