"""Differential corpus of homogeneous tuples of any length (`Tuple[int, ...]`,
`tuple[str, ...]`) as typed code uses them: parameters and results,
iteration, indexing (negative indices, IndexError), slicing, len, `in`,
concatenation, comparison, `tuple(...)` of lists and generators, and tuples
as dict keys and set members. Each runs natively and under CPython
(test_vartuple.py) on edge values: empty tuples, zero, negatives, int64
bounds and non-ASCII text."""
from typing import Dict, List, Optional, Set, Tuple


def tuple_sum(values: Tuple[int, ...]) -> int:
    total = 0
    for v in values:
        total += v
    return total


def tuple_len(values: tuple[int, ...]) -> int:
    return len(values)


def item_at(values: Tuple[int, ...], i: int) -> int:
    return values[i]


def last_item(values: Tuple[int, ...]) -> int:
    if not values:
        raise ValueError("empty tuple")
    return values[-1]


def middle(values: Tuple[int, ...]) -> Tuple[int, ...]:
    return values[1:-1]


def every_other(values: Tuple[str, ...]) -> Tuple[str, ...]:
    return values[::2]


def reversed_tuple(values: Tuple[int, ...]) -> Tuple[int, ...]:
    return values[::-1]


def contains_value(values: Tuple[int, ...], target: int) -> bool:
    return target in values


def joined(a: Tuple[int, ...], b: Tuple[int, ...]) -> Tuple[int, ...]:
    return a + b


def appended(values: Tuple[int, ...], x: int) -> Tuple[int, ...]:
    return values + (x,)


def grow(values: Tuple[int, ...], x: int) -> Tuple[int, ...]:
    out = values
    out += (x, x)
    return out


def from_list(xs: List[int]) -> Tuple[int, ...]:
    return tuple(xs)


def squares(n: int) -> Tuple[int, ...]:
    return tuple(i * i for i in range(n))


def sorted_tuple(values: Tuple[int, ...]) -> List[int]:
    return sorted(values)


def as_list(values: Tuple[str, ...]) -> List[str]:
    return list(values)


def tuples_equal(a: Tuple[int, ...], b: Tuple[int, ...]) -> bool:
    return a == b


def tuple_less(a: Tuple[int, ...], b: Tuple[int, ...]) -> bool:
    return a < b


def largest(values: Tuple[int, ...]) -> int:
    return max(values)


def total_builtin(values: Tuple[int, ...]) -> int:
    return sum(values)


def count_of(values: Tuple[int, ...], x: int) -> int:
    return values.count(x)


def longest_word(words: Tuple[str, ...]) -> str:
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


def literal_tuple(x: int) -> Tuple[int, ...]:
    values: Tuple[int, ...] = (x, x + 1, x * 2)
    return values


def empty_tuple() -> Tuple[int, ...]:
    return ()


def group_counts(keys: List[int]) -> Dict[Tuple[int, ...], int]:
    counts: Dict[Tuple[int, ...], int] = {}
    for k in keys:
        key: Tuple[int, ...] = tuple(range(k % 4))
        counts[key] = counts.get(key, 0) + 1
    return counts


def distinct_prefixes(values: Tuple[int, ...]) -> int:
    seen: Set[Tuple[int, ...]] = set()
    for i in range(len(values) + 1):
        seen.add(values[:i])
    return len(seen)


def lookup_path(table: Dict[Tuple[int, ...], str], path: Tuple[int, ...]) -> str:
    return table[path]


def enumerate_items(values: Tuple[str, ...]) -> List[str]:
    out: List[str] = []
    for i, v in enumerate(values):
        out.append(str(i) + "=" + v)
    return out


def first_or_none(values: Tuple[int, ...]) -> Optional[int]:
    if len(values) == 0:
        return None
    return values[0]


def validate_shape(shape: Tuple[int, ...]) -> int:
    size = 1
    for d in shape:
        if d < 0:
            raise ValueError("negative dimension")
        size *= d
    return size


def truthy_tuple(values: Tuple[int, ...]) -> bool:
    return bool(values)


def repeat_tuple(values: Tuple[int, ...], k: int) -> Tuple[int, ...]:
    return values * k


def describe(values: Tuple[str, ...]) -> str:
    return ", ".join(values)


def span(pair: Tuple[int, ...]) -> int:
    low, high = pair
    return high if high > low else low


def pairs_total(rows: List[Tuple[int, ...]]) -> int:
    total = 0
    for a, b in rows:
        total += a * 10 + b
    return total
