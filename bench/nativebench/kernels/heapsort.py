"""Heap sort in place, with a sift-down helper."""
from typing import List


def sift_down(a: List[int], start: int, end: int) -> None:
    root = start
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and a[child] < a[child + 1]:
            child += 1
        if a[root] < a[child]:
            a[root], a[child] = a[child], a[root]
            root = child
        else:
            return


def heap_sort(a: List[int]) -> None:
    n = len(a)
    for start in range((n - 2) // 2, -1, -1):
        sift_down(a, start, n - 1)
    for end in range(n - 1, 0, -1):
        a[end], a[0] = a[0], a[end]
        sift_down(a, 0, end - 1)


def bench_heapsort(n: int) -> int:
    values = [(i * 7919) % 100003 for i in range(n)]
    heap_sort(values)
    return values[0] + values[n // 2] + values[-1]
