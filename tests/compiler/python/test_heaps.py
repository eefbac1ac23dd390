"""Differential tests over corpus_heaps (heapq, bisect and float sums): every
function, compiled natively, gives CPython's value, list order included, or
raises CPython's exception (differential.py: the native answer itself, no
Python fallback). Float lists hold 0.0 and -0.0 and NaNs, which compare
equal or unordered but print differently: a heap that sifted with other
comparisons would show it. A float sum of no items is the explicit
"cannot do this natively" (CPython's answer is the int 0)."""
import inspect
import math
import random
import typing

import pytest

import corpus_heaps as corpus
from differential import corpus_tests, outcome, sampled_cases
from native import NativeFallback, check_eligible

MAX_CASES = 60
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)
R = random.Random(17)

INT_LISTS = [[], [0], [5, 5], [3, 1, 2, 1], [INT64_MAX, INT64_MIN, 0, -1], list(range(20, 0, -1)),
             [R.randint(-50, 50) for _ in range(40)], [R.randint(-3, 3) for _ in range(25)]]
FLOAT_LISTS = [[], [1.5], [0.0, -0.0, 0.0, -0.0], [math.nan, 1.0, -1.0, math.nan, 0.5], [2.5, -0.0, 0.0, 1e300],
               [R.choice([0.0, -0.0, 1.0, -1.0, math.inf, -math.inf]) for _ in range(30)],
               [R.uniform(-10, 10) for _ in range(33)]]
STR_LISTS = [[], ["b"], ["pear", "apple", "fig", "apple"], ["héllo", "日本", "a", "", "😀"],
             [f"w{R.randint(0, 30)}" for _ in range(20)]]
EDGE_LISTS = [[], [(0, 1)], [(0, 1), (1, 2), (2, 3), (0, 3)], [(i, (i * 5 + 3) % 9) for i in range(20)],
              [(R.randint(0, 12), R.randint(0, 12)) for _ in range(40)]]
RUNS = [[], [[]], [[1, 4, 9], [2, 3], [], [0, 10]], [sorted(R.randint(-9, 9) for _ in range(8)) for _ in range(5)]]
BY_TYPE = {typing.List[int]: INT_LISTS, typing.List[float]: FLOAT_LISTS, typing.List[str]: STR_LISTS,
           typing.List[typing.Tuple[int, int]]: EDGE_LISTS, typing.List[typing.List[int]]: RUNS,
           str: ["", "a", "zz", "apple"], float: [0.0, -1.5, 2.0, math.nan]}
BY_NAME = {"k": [0, 1, 3, 50, -1], "n": [0, 1, 5, 13], "score": [0, 59, 60, 75, 89, 90, 100, -5],
           "lo": [-10, 0, 3], "hi": [-1, 2, 40]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def pool(name, hint):
    return BY_NAME[name] if name in BY_NAME and hint is int else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 22, 400))


def test_heap_operations_follow_cpythons_order_over_random_sequences(suite):
    # Thousands of pushes, pops, pushpops and replaces on floats with signed zeros and NaNs.
    f = suite.module.get_function("pushpop_all")
    g = suite.module.get_function("heap_after_pops")
    pool = [0.0, -0.0, 1.0, -1.0, math.nan, 2.0, math.inf]
    for seed in range(30):
        r = random.Random(seed)
        xs = [r.choice(pool) for _ in range(r.randint(0, 200))]
        ys = [r.choice(pool) for _ in range(r.randint(0, 100))]
        assert repr(f(xs, ys)) == repr(corpus.pushpop_all(xs, ys)), seed
        k = r.randint(0, len(xs))
        assert repr(g(xs, k)) == repr(corpus.heap_after_pops(xs, k)), seed


def test_popping_an_empty_heap_raises_cpythons_index_error(suite):
    for name in ("pop_empty", "replace_empty"):
        with pytest.raises(IndexError, match="^index out of range$"):
            suite.module.get_function(name)([])


def test_float_sum_of_nothing_goes_back_to_cpython(suite):
    # CPython's sum([]) is the int 0: native code declines rather than answer 0.0.
    for name, args in [("total_of", ([],)), ("dot", ([], [1.0])), ("weighted_total", ([math.nan], 2.0))]:
        with pytest.raises(NativeFallback):
            suite.module.get_function(name)(*args)
    assert repr(suite.module.get_function("total_of")([-0.0])) == repr(sum([-0.0])) == "0.0"


@pytest.mark.parametrize("source, construct", [
    ("import heapq\nfrom typing import List\n\ndef f(h: List[int]) -> None:\n    heapq.heappush(h, 1)\n",
     "BorrowedMutation"),
    ("import heapq\nfrom typing import List\n\ndef f(h: List[float]) -> List[float]:\n"
     "    return heapq.nlargest(2, h)\n", "ListModule"),
    ("import heapq\nfrom typing import List, Tuple\n\ndef f(h: List[Tuple[float, int]]) -> None:\n"
     "    g = list(h)\n    heapq.heapify(g)\n", "Method"),
    ("import heapq\nfrom typing import List\n\ndef f(h: List[int]) -> List[int]:\n    return heapq.merge(h)\n",
     "ListModule"),
    ("import bisect\nfrom typing import List\n\ndef f(h: List[int]) -> int:\n    return bisect.bisect(h, 1, 2)\n",
     "Method"),
    ("from typing import List\n\nclass Box:\n    def __init__(self) -> None:\n        self.n = 0\n\n"
     "def f(b: Box, xs: List[float]) -> float:\n    b.n += 1\n    return sum(xs)\n", "Builtin"),
])
def test_what_native_code_cannot_match_stays_in_cpython(source, construct):
    reasons = dict(check_eligible(source))
    assert reasons["f"] is not None and f": {construct}: " in reasons["f"], reasons["f"]
