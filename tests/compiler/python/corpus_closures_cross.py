"""Closure factories Python calls, as people write them: a nested def or a
lambda returned under a `Callable[[...], R]` annotation, validation with
`raise` before it, a parameter rebound before the return, several closures
from one factory. Python calls the factory natively and gets back an object
it calls like the closure CPython would have made."""
from typing import Callable, List, Optional, Tuple


def make_adder(n: int) -> Callable[[int], int]:
    def add(x: int) -> int:
        return x + n
    return add


def make_multiplier(factor: float) -> Callable[[float], float]:
    return lambda x: x * factor


def make_greeter(greeting: str) -> Callable[[str], str]:
    def greet(name: str) -> str:
        """Greet someone by name."""
        return f"{greeting}, {name}!"
    return greet


def make_clamp(lo: int, hi: int) -> Callable[[int], int]:
    if lo > hi:
        raise ValueError(f"empty range: {lo} > {hi}")

    def clamp(x: int) -> int:
        return max(lo, min(hi, x))
    return clamp


def make_linear(a: int, b: int) -> Callable[[int], int]:
    return lambda x: a * x + b


def make_shifter(n: int, by: int) -> Callable[[int], int]:
    # The closure reads n when it runs: after the factory rebound it.
    n = n + by
    return lambda x: x - n


def make_operator(op: str) -> Callable[[int, int], int]:
    if op == "+":
        return lambda a, b: a + b
    if op == "-":
        return lambda a, b: a - b
    if op == "*":
        return lambda a, b: a * b
    if op == "//":
        return lambda a, b: a // b
    raise ValueError(f"unknown operator: {op!r}")


def make_column_key(col: int) -> Callable[[Tuple[int, int, int]], int]:
    return lambda row: row[col]


def make_length_check(min_len: int, max_len: int) -> Callable[[str], bool]:
    def valid(s: str) -> bool:
        return min_len <= len(s) <= max_len
    return valid


def make_threshold_counter(limit: int) -> Callable[[List[int]], int]:
    def count(values: List[int]) -> int:
        return sum(1 for v in values if v > limit)
    return count


def make_padder(width: int) -> Callable[[str], str]:
    def pad(s: str) -> str:
        if len(s) >= width:
            return s
        return s + "." * (width - len(s))
    return pad


def make_countdown(step: int) -> Callable[[int], List[int]]:
    if step <= 0:
        raise ValueError("step must be positive")

    def countdown(start: int) -> List[int]:
        out: List[int] = []
        while start > 0:
            out.append(start)
            start -= step
        return out
    return countdown


def make_tagger(tag: str, sep: str = ":") -> Callable[[str], str]:
    return lambda s: tag + sep + s


def make_in_bounds(bounds: Tuple[int, int]) -> Callable[[int], bool]:
    return lambda x: bounds[0] <= x <= bounds[1]


def make_divider(d: int) -> Callable[[int], Tuple[int, int]]:
    def divide(x: int) -> Tuple[int, int]:
        return x // d, x % d
    return divide


def make_scale(factor: Optional[int]) -> Callable[[int], int]:
    if factor is None:
        return lambda x: x
    return lambda x: x * factor


def make_window(lo: int, size: int) -> Callable[[int], bool]:
    if size < 0:
        raise ValueError(f"negative size: {size}")
    hi = lo + size  # a local captured: its assignment says int
    return lambda x: lo <= x < hi


def make_step(up: bool, k: int) -> Callable[[int], int]:
    # Three lambdas of one name: the key's, then the two returned; each closure is its own code object.
    if max([k, 0], key=lambda v: abs(v)) > 1000:
        raise ValueError("step too large")
    if up:
        return lambda up_by: up_by + k
    return lambda down_by: down_by - k


# ---- a key lambda capturing a comprehension's variable; a nested def capturing an unannotated local ----
def sort_by_each_column(rows: List[Tuple[int, int, int]]) -> List[List[Tuple[int, int, int]]]:
    return [sorted(rows, key=lambda t: t[k]) for k in range(3)]


def weighed_sum(xs: List[int], factor: int) -> int:
    offset = len(xs)

    def weigh(v: int) -> int:
        w = v * factor
        return w + offset
    return sum(weigh(v) for v in xs)


def gains_over_best(xs: List[int]) -> List[int]:
    best = 0

    def gain(v: int) -> int:
        if v > best:
            return v - best
        return 0
    out: List[int] = []
    for x in xs:
        out.append(gain(x))
        if x > best:
            best = x
    return out


def labels_with_prefix(words: List[str], sep: str) -> List[str]:
    prefix = ""
    count = 0

    def label(w: str) -> str:
        text = prefix + sep + w
        return text + "#" + str(count)
    out = []
    for w in words:
        out.append(label(w))
        prefix = prefix + w[:1]
        count += 1
    return out


def average_distance(xs: List[float], center: float) -> float:
    total = 0.0

    def distance(v: float) -> float:
        d = v - center
        return d if d >= 0 else -d
    for x in xs:
        total += distance(x)
    return total / len(xs) if xs else 0.0
