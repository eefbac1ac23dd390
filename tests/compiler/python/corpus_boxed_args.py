"""Differential corpus of typed containers (`List[int]`, `Dict[str, int]`)
and typed values handed to helpers declared with bare `list` / `dict` / `Any`
parameters, as code mixing annotated and loosely annotated helpers does
(test_boxed_args.py). A helper that only reads such a parameter gets a copy
as a Python object, which it cannot tell from the caller's own."""
from typing import Any, Dict, List


def total_of(xs: list) -> Any:
    t: Any = 0
    for x in xs:
        t = t + x
    return t


def mean_of(xs: List[int]) -> Any:
    if not xs:
        return None
    return total_of(xs) / len(xs)


def count_positive(xs: list) -> int:
    n = 0
    for x in xs:
        if x > 0:
            n += 1
    return n


def positive_share(scores: List[int]) -> float:
    if len(scores) == 0:
        return 0.0
    return count_positive(scores) / len(scores)


def keys_of(d: dict) -> list:
    return sorted(d.keys())


def lookup(d: dict, key: Any) -> Any:
    return d.get(key, 0)


def summary(counts: Dict[str, int], key: str) -> Any:
    return (keys_of(counts), f"{key}={lookup(counts, key)}")


def show(x: Any) -> str:
    return f"<{x}>"


def show_all(xs: List[int], d: Dict[str, int], n: int) -> str:
    return show(xs) + show(d) + show(n) + show([n, n + 1])


def largest(xs: list) -> Any:
    best: Any = None
    for x in xs:
        if best is None or x > best:
            best = x
    return best


def largest_squared(xs: List[int]) -> Any:
    return largest([x * x for x in xs])


def checked_total(xs: List[int], limit: int) -> Any:
    try:
        t = total_of(xs)
        if t > limit:
            raise ValueError("over the limit")
        return t
    except ValueError as e:
        return str(e)


def is_valid_id(x: Any) -> bool:
    return isinstance(x, int) and x > 0


def valid_ids(ids: List[int]) -> List[int]:
    return [i for i in ids if is_valid_id(i)]


def describe_counts(d: dict) -> str:
    parts: List[str] = []
    for k in sorted(d):
        parts.append(f"{k}={d[k]}")
    return ", ".join(parts)


def report(counts: Dict[str, int]) -> str:
    return "counts: " + describe_counts(counts)


def contains_all(xs: list, wanted: list) -> bool:
    for w in wanted:
        if w not in xs:
            return False
    return True


def has_pair(xs: List[int], a: int, b: int) -> bool:
    return contains_all(xs, [a, b])
