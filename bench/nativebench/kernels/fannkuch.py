"""Fannkuch-redux: the maximum number of pancake flips over all permutations
(the Benchmarks Game algorithm, typed, flips written as a loop)."""
from typing import List, Tuple


def flip(perm: List[int], k: int) -> None:
    i = 0
    while i < k:
        perm[i], perm[k] = perm[k], perm[i]
        i += 1
        k -= 1


def count_flips(perm1: List[int]) -> int:
    perm = perm1[:]
    flips = 0
    k = perm[0]
    while k:
        flip(perm, k)
        flips += 1
        k = perm[0]
    return flips


def fannkuch(n: int) -> Tuple[int, int]:
    perm1 = list(range(n))
    count = [0] * n
    max_flips = 0
    checksum = 0
    permutation = 0
    r = n
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        flips = count_flips(perm1)
        max_flips = max(max_flips, flips)
        checksum += flips if permutation % 2 == 0 else -flips
        while True:
            if r == n:
                return checksum, max_flips
            first = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = first
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        permutation += 1


def bench_fannkuch(n: int) -> int:
    checksum, flips = fannkuch(n)
    return checksum * 1000 + flips
