"""Sieve of Eratosthenes: primes below a limit."""
from typing import List


def sieve(limit: int) -> List[int]:
    if limit < 2:
        return []
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    p = 2
    while p * p <= limit:
        if is_prime[p]:
            for multiple in range(p * p, limit + 1, p):
                is_prime[multiple] = False
        p += 1
    return [i for i in range(limit + 1) if is_prime[i]]


def bench_sieve(limit: int) -> int:
    total = 0
    for _ in range(5):
        primes = sieve(limit)
        total += len(primes) + primes[-1]
    return total
