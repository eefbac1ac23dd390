"""Functions used as values, as people write them: dispatch tables of
lambdas, key functions passed around, Callable helpers (apply, compose,
fold), nested helpers named as values, lists of closures built in loops
(late binding: each sees the loop variable's last value). The helpers that
take a Callable run natively only through the copies their native callers
get; the other functions are the corpus."""
from typing import Callable, Dict, List, Tuple


# ---- helpers taking a Callable (native callers only) ----------------------------------
def apply_all(f: Callable[[int], int], xs: List[int]) -> List[int]:
    return [f(x) for x in xs]


def apply_twice(f: Callable[[int], int], x: int) -> int:
    return f(f(x))


def compose_apply(f: Callable[[int], int], g: Callable[[int], int], x: int) -> int:
    return f(g(x))


def fold(f: Callable[[int, int], int], xs: List[int], acc: int) -> int:
    for x in xs:
        acc = f(acc, x)
    return acc


def fold_rec(f: Callable[[int, int], int], xs: List[int], i: int, acc: int) -> int:
    if i >= len(xs):
        return acc
    return fold_rec(f, xs, i + 1, f(acc, xs[i]))


def keep_if(pred: Callable[[int], bool], xs: List[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        if pred(x):
            out.append(x)
    return out


def top_by(words: List[str], key: Callable[[str], int], n: int = 3) -> List[str]:
    return sorted(words, key=key)[:n]


def best_by(words: List[str], key: Callable[[str], int]) -> str:
    if not words:
        raise ValueError("no words")
    return max(words, key=key)


def count_matching(pred: Callable[[str], bool], words: List[str]) -> int:
    return sum(1 for w in words if pred(w))


def apply_pairwise(f: Callable[[int, int], int], xs: List[int], ys: List[int]) -> List[int]:
    return [f(a, b) for a, b in zip(xs, ys)]


def safe_divide_with(op: Callable[[int, int], int], a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("division by zero in helper")
    return op(a, b)


def times_two(x: int) -> int:
    return x * 2


def plus_one(x: int) -> int:
    return x + 1


def word_score(w: str) -> int:
    return sum(ord(c) for c in w) % 97


# ---- passed to Callable helpers -----------------------------------------------------
def squares(xs: List[int]) -> List[int]:
    return apply_all(lambda x: x * x, xs)


def scaled(xs: List[int], k: int) -> List[int]:
    return apply_all(lambda x: x * k + 1, xs)


def doubled_with_named(xs: List[int]) -> List[int]:
    return apply_all(times_two, xs)


def absolute_values(xs: List[int]) -> List[int]:
    return apply_all(abs, xs)


def twice_plus(x: int, step: int) -> int:
    return apply_twice(lambda v: v + step, x)


def composed(x: int) -> int:
    return compose_apply(times_two, plus_one, x)


def composed_lambdas(x: int, k: int) -> int:
    return compose_apply(lambda v: v - k, lambda v: v * 3, x)


def product(xs: List[int]) -> int:
    return fold(lambda a, b: a * b, xs, 1)


def total_rec(xs: List[int]) -> int:
    return fold_rec(lambda a, b: a + b, xs, 0, 0)


def max_rec(xs: List[int]) -> int:
    if not xs:
        raise ValueError("max_rec() of an empty list")
    return fold_rec(max, xs, 1, xs[0])


def evens(xs: List[int]) -> List[int]:
    return keep_if(lambda x: x % 2 == 0, xs)


def above(xs: List[int], limit: int) -> List[int]:
    return keep_if(lambda x: x > limit, xs)


def shortest_words(words: List[str]) -> List[str]:
    return top_by(words, len)


def words_by_score(words: List[str]) -> List[str]:
    return top_by(words, word_score, 2)


def longest_word(words: List[str]) -> str:
    return best_by(words, lambda w: len(w))


def count_long(words: List[str], n: int) -> int:
    return count_matching(lambda w: len(w) > n, words)


def pairwise_diff(xs: List[int], ys: List[int]) -> List[int]:
    return apply_pairwise(lambda a, b: a - b, xs, ys)


def floor_div_checked(a: int, b: int) -> int:
    return safe_divide_with(lambda x, y: x // y, a, b)


def mod_lambda_raises(a: int, b: int) -> int:
    # The ZeroDivisionError is raised inside the lambda, with CPython's message.
    return apply_twice(lambda v: v % b, a)


# ---- nested helpers named as values ---------------------------------------------------------
def shifted(xs: List[int], offset: int) -> List[int]:
    def shift(x: int) -> int:
        return x + offset
    return apply_all(shift, xs)


def clamp_all(xs: List[int], lo: int, hi: int) -> List[int]:
    def clamp(x: int) -> int:
        if x < lo:
            return lo
        if x > hi:
            return hi
        return x
    return keep_if(lambda x: clamp(x) == x, xs) + apply_all(clamp, xs)


def nested_in_table(op: str, x: int) -> int:
    def neg(v: int) -> int:
        return -v

    def sq(v: int) -> int:
        return v * v
    table = {"neg": neg, "sq": sq, "abs": abs}
    return table[op](x)


# ---- dispatch tables ------------------------------------------------------------------------
def calc(op: str, a: int, b: int) -> int:
    ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
           "//": lambda x, y: x // y, "%": lambda x, y: x % y}
    return ops[op](a, b)


def calc_or_zero(op: str, a: int, b: int) -> int:
    ops: Dict[str, Callable[[int, int], int]] = {"max": max, "min": min}
    ops["hyp"] = lambda x, y: x * x + y * y
    if op not in ops:
        return 0
    return ops[op](a, b)


def run_program(program: List[str], start: int) -> int:
    steps = {"inc": lambda v: v + 1, "dec": lambda v: v - 1, "dbl": lambda v: v * 2, "neg": lambda v: -v}
    value = start
    for instr in program:
        value = steps[instr](value)
    return value


def by_index(i: int, x: int) -> int:
    fs = [lambda v: v + 10, lambda v: v * 10, times_two]
    return fs[i](x)


def pick_op(use_max: bool, a: int, b: int) -> int:
    f = max if use_max else min
    return f(a, b)


def conditional_lambda(flag: bool, x: int) -> int:
    g = (lambda v: v + 100) if flag else (lambda v: v - 100)
    return g(x)


def table_size(n: int) -> int:
    handlers = {"a": lambda v: v, "b": lambda v: v + n}
    return len(handlers) + handlers["b"](n)


def pipeline(x: int) -> int:
    stages: Tuple[Callable[[int], int], ...] = (lambda v: v + 3, lambda v: v * 2, lambda v: v - 1)
    for stage in stages:
        x = stage(x)
    return x


def dispatch_keys(op: str) -> List[str]:
    ops = {"x": lambda v: v, "y": lambda v: -v}
    return [k for k in ops if k != op]


# ---- late binding ----------------------------------------------------------------------------
def closures_in_loop(n: int) -> List[int]:
    fs: List[Callable[[int], int]] = []
    for i in range(n):
        fs.append(lambda x: x + i)
    return [f(10) for f in fs]


def rebound_after(k: int) -> int:
    add = lambda x: x + k  # noqa: E731 - written as people write it
    fs = [add]
    k = k * 100
    return fs[0](1)


def counter_sees_updates(xs: List[int]) -> List[int]:
    total = 0
    report = [lambda: total]
    out: List[int] = []
    for x in xs:
        total += x
        out.append(report[0]())
    return out


def late_scale(xs: List[int]) -> List[int]:
    factor = 1
    muls = {"scale": lambda v: v * factor}
    out: List[int] = []
    for x in xs:
        factor = x
        out.append(muls["scale"](3))
    return out


# ---- tables walked whole ------------------------------------------------------------------
def apply_each(x: int) -> Dict[str, int]:
    ops = {"double": lambda v: v * 2, "square": lambda v: v * v, "negate": lambda v: -v}
    return {name: fn(x) for name, fn in ops.items()}


def sum_of_views(x: int) -> int:
    ops = {"inc": lambda v: v + 1, "half": lambda v: v // 2}
    return sum(fn(x) for fn in ops.values())


def chain_named(x: int) -> int:
    for f in [plus_one, times_two, abs]:
        x = f(x)
    return x


def called_before_stored(xs: List[int]) -> List[int]:
    # The table gains a function after the first call site in the loop's text.
    table: List[Callable[[int], int]] = [lambda v: v + 1]
    out: List[int] = []
    for x in xs:
        out.append(table[-1](x))
        table.append(lambda v: v * x)
    return out
