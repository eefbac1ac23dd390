"""Longest common subsequence by dynamic programming."""
from typing import List


def lcs_length(a: str, b: str) -> int:
    m, n = len(a), len(b)
    dp: List[List[int]] = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if a[i - 1] == b[j - 1]:
                dp[i][j] = dp[i - 1][j - 1] + 1
            else:
                dp[i][j] = max(dp[i - 1][j], dp[i][j - 1])
    return dp[m][n]


def make_text(n: int, seed: int) -> str:
    letters = "ACGT"
    out: List[str] = []
    x = seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        out.append(letters[x % 4])
    return "".join(out)


def bench_lcs(n: int) -> int:
    return lcs_length(make_text(n, 1), make_text(n, 2))
