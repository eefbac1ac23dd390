"""Differential corpus of Optional values as typed code uses them: `Optional[T]`,
`Union[T, None]` and `T | None` parameters with `= None` defaults, locals
that start as None and get a value later, early returns, `return None`
paths, `is None` / `is not None` / `==` tests, lists of Optionals, and
None used where a value is needed (CPython's TypeError, which native code
hands back to CPython). Each runs natively and under CPython
(test_optional.py) on edge values: None, zero, negatives, int64 bounds,
empty containers and non-ASCII text."""
from typing import Dict, List, Optional, Union


def find_index(xs: List[int], target: int) -> Optional[int]:
    for i, x in enumerate(xs):
        if x == target:
            return i
    return None


def first_negative(xs: List[int]) -> Optional[int]:
    for x in xs:
        if x < 0:
            return x
    return None


def max_or_none(xs: List[int], key: Optional[int] = None) -> Optional[int]:
    best: Optional[int] = None
    for x in xs:
        if key is not None and x > key:
            continue
        if best is None or x > best:
            best = x
    return best


def min_untyped_start(xs: List[int]) -> Optional[int]:
    smallest = None
    for x in xs:
        if smallest is None or x < smallest:
            smallest = x
    return smallest


def longest_word(words: List[str]) -> Optional[str]:
    result = None
    for w in words:
        if result is None or len(w) > len(result):
            result = w
    return result


def value_or_default(x: Optional[int], default: int) -> int:
    if x is None:
        return default
    return x


def add_optional(a: Optional[int], b: int) -> int:
    return a + b


def scale_optional(x: Optional[float], factor: float) -> float:
    return x * factor


def describe(x: Optional[int]) -> str:
    if x is None:
        return "missing"
    if x < 0:
        return "negative"
    return "value " + str(x)


def is_missing(x: Optional[str]) -> bool:
    return x is None


def equals_optional(a: Optional[int], b: Optional[int]) -> bool:
    return a == b


def differs_from(a: Optional[int], b: int) -> bool:
    return a != b


def equals_none(a: Optional[str]) -> bool:
    return a == None  # noqa: E711 - written as real code writes it


def truthy(x: Optional[int]) -> bool:
    if x:
        return True
    return False


def text_truthy(s: Optional[str]) -> int:
    return 1 if s else 0


def clamp(x: int, low: Optional[int] = None, high: Optional[int] = None) -> int:
    if low is not None and x < low:
        return low
    if high is not None and x > high:
        return high
    return x


def parse_int(s: str) -> Optional[int]:
    if not s:
        return None
    if not s.isdigit():
        return None
    if len(s) > 18:
        return None
    return int(s)


def sum_parsed(parts: List[str]) -> int:
    total = 0
    for p in parts:
        v = parse_int(p)
        if v is not None:
            total += v
    return total


def count_present(xs: List[Optional[int]]) -> int:
    n = 0
    for x in xs:
        if x is not None:
            n += 1
    return n


def sum_present(xs: List[Optional[int]]) -> int:
    total = 0
    for x in xs:
        if x is None:
            continue
        total += x
    return total


def fill_missing(xs: List[Optional[int]], fill: int) -> List[int]:
    out: List[int] = []
    for x in xs:
        out.append(fill if x is None else x)
    return out


def wrap_all(xs: List[int]) -> List[Optional[int]]:
    out: List[Optional[int]] = []
    for x in xs:
        if x % 2 == 0:
            out.append(x)
        else:
            out.append(None)
    return out


def memo_fib(n: int) -> int:
    if n < 0:
        raise ValueError("n must be non-negative")
    memo: List[Optional[int]] = [None] * (n + 1)
    return _fib(n, memo)


def _fib(n: int, memo: List[Optional[int]]) -> int:
    if n < 2:
        return n
    known = memo[n]
    if known is not None:
        return known
    value = _fib(n - 1, memo) + _fib(n - 2, memo)
    memo[n] = value
    return value


def require_value(x: Optional[int]) -> int:
    if x is None:
        raise ValueError("value is required")
    return x * 2


def union_spelling(x: Union[int, None], y: "int | None") -> int:
    if x is None and y is None:
        return 0
    if x is None:
        return -1
    if y is None:
        return 1
    return x if x > y else y


def last_word(s: str) -> Optional[str]:
    words = s.split()
    if not words:
        return None
    return words[-1]


def lookup(d: Dict[str, int], key: str) -> Optional[int]:
    if key in d:
        return d[key]
    return None


def lookup_total(d: Dict[str, int], keys: List[str]) -> int:
    total = 0
    for k in keys:
        v = lookup(d, k)
        if v is None:
            continue
        total += v
    return total


def falls_off_end(x: int) -> Optional[int]:
    if x > 0:
        return x


def bare_return(x: int) -> Optional[str]:
    if x == 0:
        return
    return str(x)


def conditional_none(x: int) -> Optional[int]:
    return x if x > 0 else None


def optional_list(n: int) -> Optional[List[int]]:
    if n < 0:
        return None
    return [i * i for i in range(n)]


def length_of(xs: Optional[List[int]]) -> int:
    if xs is None:
        return -1
    return len(xs)


def optional_default_str(name: str, greeting: Optional[str] = None) -> str:
    if greeting is None:
        greeting = "hello"
    return greeting + ", " + name


def negate_optional(x: Optional[int]) -> Optional[int]:
    if x is not None:
        return -x
    return None


def compare_optional(a: Optional[int], b: int) -> bool:
    return a < b


def index_of_max(xs: List[float]) -> Optional[int]:
    best_i: Optional[int] = None
    best_v = 0.0
    for i, x in enumerate(xs):
        if best_i is None or x > best_v:
            best_i = i
            best_v = x
    return best_i


def none_in_list(xs: List[Optional[int]]) -> bool:
    return None in xs


def lists_equal(a: List[Optional[int]], b: List[Optional[int]]) -> bool:
    return a == b


def update_slot(xs: List[Optional[int]], i: int) -> List[Optional[int]]:
    out = xs.copy()
    out[i] = None
    return out


def call_with_default(xs: List[int]) -> int:
    best = max_or_none(xs)
    capped = max_or_none(xs, key=10)
    if best is None or capped is None:
        return 0
    return best - capped


def get_or_zero(d: Dict[str, int], key: str) -> int:
    v = d.get(key)
    if v is None:
        return 0
    return v


def get_raw(d: Dict[str, int], key: str) -> Optional[int]:
    return d.get(key)


def name_or_default(name: Optional[str]) -> str:
    return name or "anonymous"


def first_truthy(a: Optional[int], b: Optional[int]) -> Optional[int]:
    return a or b


def both_set(a: Optional[int], b: int) -> Optional[int]:
    return a and b


def label(x: Optional[int]) -> str:
    return f"value={x}"


def as_text(x: Optional[str]) -> str:
    return str(x) + "!"


def count_keys(d: Dict[str, int], keys: List[str]) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for k in keys:
        current = out.get(k)
        out[k] = 1 if current is None else current + 1
    return out


def checked_double(x: Optional[int]) -> int:
    if not isinstance(x, int):
        raise ValueError("an int is required")
    return x * 2 if isinstance(x, (int, float)) else 0
