"""Count the solutions of the n-queens problem by backtracking."""
from typing import List


def is_safe(queens: List[int], col: int) -> bool:
    row = len(queens)
    for r, c in enumerate(queens):
        if c == col or abs(c - col) == row - r:
            return False
    return True


def place(queens: List[int], n: int) -> int:
    if len(queens) == n:
        return 1
    count = 0
    for col in range(n):
        if is_safe(queens, col):
            queens.append(col)
            count += place(queens, n)
            queens.pop()
    return count


def bench_nqueens(n: int) -> int:
    queens: List[int] = []
    return place(queens, n)
