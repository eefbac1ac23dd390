"""Closures that capture by value, as people write them: lambdas with
defaults (`lambda x, k=k: x + k`, evaluated once, where the lambda is made),
lambdas made in comprehensions and loops with the default idiom, key lambdas
inside comprehensions, and closures returned by factories (`make_adder`)
used by native callers and by Python (corpus_closures_cross.py has more of
those)."""
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


def make_offsetter(n: int, by: int) -> Callable[[int], int]:
    # A nested def reading a parameter the factory rebinds first: it sees the new value.
    n = n + by

    def offset(x: int) -> int:
        if x < 0:
            return n - x
        return x - n
    return offset


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


# ---- late binding: what a function reads when it runs ------------------------------------------
def best_per_column_pinned(rows: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    # The default pins each column: evaluated once, where the key lambda is made.
    best = []
    for i in range(2):
        best.append(max(rows, key=lambda r, i=i: r[i]) if rows else (0, 0))
    return best


def sorted_copies_pinned(rows: List[Tuple[int, int]], by: int) -> List[List[Tuple[int, int]]]:
    out = []
    for col in (1, 0):
        ys = list(rows)
        ys.sort(key=lambda r, c=col, w=by: r[c] * w - r[1 - c])
        out.append(ys)
        out.append(sorted(rows, key=lambda r, c=col: -r[c], reverse=True))
    return out


def columns_sorted_in_loop(rows: List[Tuple[int, int]]) -> List[List[Tuple[int, int]]]:
    # Used only in the iteration that makes it: the key reads the loop variable's current value.
    out = []
    for i in range(2):
        out.append(sorted(rows, key=lambda r: r[i]))
    return out


def scaled_by_length(xs: List[int], factor: int) -> List[int]:
    offset = len(xs)

    def adjust(v: int) -> int:
        return v * factor + offset
    return [adjust(x) for x in xs]


def running_offsets(xs: List[int]) -> List[int]:
    # The nested function reads total when it is called: every call sees the sum so far.
    total = 0

    def shifted(v: int) -> int:
        return v + total
    out = []
    for x in xs:
        out.append(shifted(x))
        total += x
    return out


def count_repeats(xs: List[int]) -> int:
    seen = set()

    def is_seen(v: int) -> bool:
        return v in seen
    n = 0
    for x in xs:
        if is_seen(x):
            n += 1
        seen.add(x)
    return n


def by_rank(words: List[str]) -> List[str]:
    rank = {w: i for i, w in enumerate(sorted(set(words)))}

    def key(w: str) -> Tuple[int, str]:
        """Latest in the alphabet first."""
        return (-rank[w], w)
    return sorted(words, key=key)


def rebound_parameter(x: int, k: int) -> int:
    def plus(v: int) -> int:
        return v + k
    before = plus(x)
    k = k * 2
    return before * 1000 + plus(x)


def bumped_by_step(xs: List[int], n: int) -> List[int]:
    out = []
    for step in range(1, 3):
        def bump(v: int) -> int:
            return v * step + n
        out.extend([bump(x) for x in xs])
    return out


def ratios(xs: List[int], k: int) -> List[int]:
    def ratio(v: int) -> int:
        return k // v
    return [ratio(x) for x in xs]


def chosen_transform(xs: List[int], flag: bool) -> List[int]:
    if flag:
        def t(v: int) -> int:
            return -v
    else:
        def t(v: int) -> int:
            return v % 3
    return [t(x) for x in xs]


def length_handlers(words: List[str]) -> List[int]:
    # Every handler reads w when called, after the loop: its last value.
    handlers = {}
    for w in words:
        handlers[w] = lambda x: x + len(w)
    return [h(1) for h in handlers.values()]


def pinned_keys_and_late_readers(rows: List[Tuple[int, int]]) -> List[int]:
    # The keys pin i with a default; the readers, made in the same loop, read its last value.
    best = []
    readers = []
    for i in range(2):
        best.append(max(rows, key=lambda r, i=i: r[i]) if rows else (0, 0))
        readers.append(lambda: i * 10)
    return [b[0] - b[1] for b in best] + [r() for r in readers]


def clipped(xs: List[int], hi: int) -> List[int]:
    # The parameter is rebound before the nested def runs: each call reads the clipped limit.
    hi = max(hi, 0)

    def clip(v: int) -> int:
        if v > hi:
            return hi
        return v
    return [clip(x) for x in xs]


def new_highs(xs: List[int]) -> int:
    best: int = 0

    def beats(v: int) -> bool:
        if v > best:
            return True
        return False
    n = 0
    for x in xs:
        if beats(x):
            n += 1
            best = x
    return n


def doubled_countdown(x: int, n: int) -> int:
    # Recursive, so lifted: each call is passed x as it is then, after the rebinding.
    def down(a: int) -> int:
        return x if a < 1 else down(a - 1) + x
    x = x * 2
    return down(min(max(n, 0), 5))


def passes_checks(lo: int, hi: int, xs: List[int]) -> List[bool]:
    # One check pins its modulus with a default; the others read lo and hi when they run.
    checks = [lambda v: v >= lo, lambda v: v <= hi, lambda v, m=2: v % m == 0]
    hi = hi + 1
    return [all(c(x) for c in checks) for x in xs]


def pinned_then_late(n: int, k: int) -> List[int]:
    fs = [lambda x, i=i: x + i * 10 for i in range(max(0, min(n, 4)))]
    fs.append(lambda x: x * k)
    k = k + 1
    return [f(2) for f in fs]


def ops_with_defaults(op: str, x: int, k: int) -> int:
    ops = {"+": lambda v, by=k: v + by, "neg": lambda v: -v, "sq": lambda v: v * v}
    k = 0
    return ops[op](x) if op in ops else k


def offsets_from_factory(n: int, by: int, xs: List[int]) -> List[int]:
    f = make_offsetter(n, by)
    n = 0
    return [f(x) for x in xs] + [n]
