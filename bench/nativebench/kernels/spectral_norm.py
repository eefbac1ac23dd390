"""Spectral norm of the infinite matrix A (the Benchmarks Game program, typed)."""
from typing import List


def eval_a(i: int, j: int) -> float:
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def a_times_u(u: List[float], out: List[float]) -> None:
    n = len(u)
    for i in range(n):
        total = 0.0
        for j in range(n):
            total += eval_a(i, j) * u[j]
        out[i] = total


def at_times_u(u: List[float], out: List[float]) -> None:
    n = len(u)
    for i in range(n):
        total = 0.0
        for j in range(n):
            total += eval_a(j, i) * u[j]
        out[i] = total


def ata_times_u(u: List[float], out: List[float], tmp: List[float]) -> None:
    a_times_u(u, tmp)
    at_times_u(tmp, out)


def bench_spectral_norm(n: int) -> float:
    u = [1.0] * n
    v = [0.0] * n
    tmp = [0.0] * n
    for _ in range(10):
        ata_times_u(u, v, tmp)
        ata_times_u(v, u, tmp)
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return (vbv / vv) ** 0.5
