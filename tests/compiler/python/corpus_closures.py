"""Closures that capture by value, as people write them: lambdas with
defaults (`lambda x, k=k: x + k`, evaluated once, where the lambda is made),
lambdas made in comprehensions and loops with the default idiom, key lambdas
inside comprehensions, and closures returned by factories (`make_adder`)
used by native callers. The factories stay Python when Python calls them
(a closure does not cross into Python natively); the other functions are
the corpus."""
from typing import Callable, Dict, List, Tuple


# ---- factories (native callers only) --------------------------------------------------------
def make_adder(n: int) -> Callable[[int], int]:
    def add(x: int) -> int:
        return x + n
    return add


def make_scaler(factor: int, offset: int) -> Callable[[int], int]:
    if factor == 0:
        raise ValueError("factor must not be zero")
    return lambda x: x * factor + offset


def make_op(op: str, k: int) -> Callable[[int], int]:
    def plus(x: int) -> int:
        return x + k

    def times(x: int) -> int:
        return x * k

    def floordiv(x: int) -> int:
        return x // k
    if op == "+":
        return plus
    if op == "*":
        return times
    if op == "//":
        return floordiv
    raise ValueError("unknown op: " + op)


def make_shifted(n: int, by: int) -> Callable[[int], int]:
    # The closure reads n when called: the factory rebinds it first, so it sees the new value.
    n = n + by
    return lambda x: x - n


def make_clamp(lo: int, hi: int) -> Callable[[int], int]:
    def clamp(x: int) -> int:
        return max(lo, min(hi, x))
    return clamp


def make_prefixer(prefix: str) -> Callable[[str], str]:
    return lambda s: prefix + s.upper()


# ---- lambdas with defaults -------------------------------------------------------------------
def adders_in_loop(n: int) -> List[int]:
    fs: List[Callable[[int], int]] = []
    for i in range(n):
        fs.append(lambda x, i=i: x + i)
    return [f(10) for f in fs]


def defaults_made_once(k: int) -> int:
    add = lambda x, k=k: x + k  # noqa: E731 - written as people write it
    k = k * 100
    return add(1) + k


def default_replaced_by_argument(x: int, k: int) -> int:
    shift = lambda v, by=k: v + by  # noqa: E731
    return shift(x) * 3 + shift(x, 1)


def immediate_default(x: int, k: int) -> int:
    return (lambda v, w=k * 2: v - w)(x)


def default_raises_where_made(x: int, k: int) -> List[int]:
    fs = []
    for d in range(3):
        # The default divides where the lambda is made: k == 0 raises before any call.
        fs.append(lambda v, q=x // (k + d): v + q)
    return [f(1) for f in fs]


def powers_by_default(base: int, n: int) -> List[int]:
    table = {e: (lambda x, e=e: x ** e) for e in range(max(0, min(n, 4)))}
    return [table[e](base) for e in table]


def greeters(names: List[str]) -> List[str]:
    fs = [lambda punct, who=who: "hi " + who + punct for who in names]
    return [f("!") for f in fs]


def multipliers(n: int) -> List[int]:
    ms = [lambda x, i=i: x * i for i in range(n)]
    return [m(3) for m in ms]


def defaults_early_captures_late(n: int) -> List[int]:
    # i is each lambda's own (a default); base is read when it runs: its last value.
    base = 1
    fs = [lambda y, i=i: y + i + base for i in range(n)]
    base = 100
    return [g(1) for g in fs]


def two_defaults_some_replaced(n: int) -> List[int]:
    fs = []
    for i in range(n):
        fs.append(lambda x, a=i, b=i * i: x + a * 10 + b)
    return [f(0) for f in fs] + [f(1, 2) for f in fs] + [f(1, 2, 3) for f in fs]


def handler_table(op: str, x: int, k: int) -> int:
    handlers = {"+": lambda v, k=k: v + k, "-": lambda v, k=k: v - k, "*": lambda v, k=k: v * k}
    k = 0
    return handlers[op](x)


def pick_default(flag: bool, x: int, k: int) -> int:
    g = (lambda v, a=k: v + a) if flag else (lambda v, a=-k: v * a)
    return g(x)


# ---- key lambdas inside comprehensions --------------------------------------------------------
def sorted_by_each_column(rows: List[Tuple[int, int]]) -> List[List[Tuple[int, int]]]:
    return [sorted(rows, key=lambda t: t[i]) for i in range(2)]


def closest_per_target(xs: List[int], targets: List[int]) -> List[int]:
    if not xs:
        return []
    return [min(xs, key=lambda v: abs(v - t)) for t in targets]


def count_above_each(xs: List[int], limits: List[int]) -> List[int]:
    return [len(list(filter(lambda v: v > lim, xs))) for lim in limits]


# ---- closures returned by factories, used natively --------------------------------------------
def add_with_factory(n: int, x: int) -> int:
    add = make_adder(n)
    return add(x) + add(-x)


def factory_called_at_once(n: int, x: int) -> int:
    return make_adder(n)(x)


def scaled_all(factor: int, offset: int, xs: List[int]) -> List[int]:
    f = make_scaler(factor, offset)
    return [f(x) for x in xs]


def adders_from_factory(n: int) -> List[int]:
    fs = [make_adder(i) for i in range(n)]
    return [f(100) for f in fs]


def apply_op(op: str, k: int, x: int) -> int:
    return make_op(op, k)(x)


def ops_table(k: int, x: int) -> Dict[str, int]:
    ops = {name: make_op(name, k) for name in ["+", "*", "//"]}
    return {name: f(x) for name, f in ops.items()}


def clamp_all(lo: int, hi: int, xs: List[int]) -> List[int]:
    clamp = make_clamp(lo, hi)
    return [clamp(x) for x in xs]


def shifted_twice(n: int, by: int, x: int) -> int:
    shift = make_shifted(n, by)
    return shift(shift(x))


def captured_before_rebinding(n: int, x: int) -> int:
    add = make_adder(n)
    n = n * 1000
    return add(x) + n


def shout_all(prefix: str, words: List[str]) -> List[str]:
    shout = make_prefixer(prefix)
    return [shout(w) for w in words]


# ---- a lambda with defaults given to a Callable helper ----------------------------------------
def apply_twice(f: Callable[[int], int], x: int) -> int:
    return f(f(x))


def twice_with_default(x: int, k: int) -> int:
    step: int = k
    result = apply_twice(lambda v, by=step: v + by, x)
    return result
