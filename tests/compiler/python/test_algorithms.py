"""Differential tests over corpus_algorithms: every function, compiled
natively, must give the same result with the same type, or raise the same
exception type with the same message, as CPython (differential.py: the
native answer itself, no Python fallback); its arguments must be left as
they were. Inputs come from the annotations, and from the parameter's name
for loop bounds."""
import inspect
import itertools
import math
import typing


import corpus_algorithms as corpus
from differential import corpus_tests

MAX_CASES = 150
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

INTS = [0, 1, -1, 2, -2, 3, 7, -7, 10, 97, 100, -100, 2 ** 31 - 1, 2 ** 31, 2 ** 53 + 1, INT64_MAX, INT64_MIN]
LOOP_BOUNDS = [0, 1, 2, 3, 5, 10, 25, -1, -3]
FLOATS = [0.0, -0.0, 1.5, -2.25, 100.0, 1e300, -1e-300, math.inf, -math.inf, math.nan]
STRS = ["", "a", "abc", "banana", "ana", "héllo wörld", "日本語テキスト", " two  words ", "\u2003sp\u3000",
        "(a[b]{c})", "(]", "((", "MCMXCIV", "XLII", "1,2, 3,,x", "1011", "é", "Hello World", "😀a😀",
        "١٢,3"]
INT_LISTS = [[], [0], [5], [3, 1, 2, 1], [-1, 5, -1, 7], [2, 4, 6, 8], [5, 4, 3, 2, 1, 0], [1, 2, 3],
             [INT64_MAX, INT64_MIN], [2 ** 62, 2 ** 62, -3], [9, -2, 9, 4, 4, 4, 0]]
FLOAT_LISTS = [[], [1.5], [0.5, -2.0, 3.25], [1e308, 1e308], [math.inf, 1.0], [math.nan, 2.0], [-0.0, 0.0, 4.5]]
STR_LISTS = [[], ["a"], ["flower", "flow", "flight"], ["the", "cat", "the", "hat", "cat", "the"],
             ["héllo", "hé", "日本"], ["", "a"], ["3", "4", "+", "2", "*"], ["1", "+"], ["5", "1", "2", "+", "-"],
             ["9", "9", "*", "9", "*", "9", "*"]]
PAIR_LISTS = [[], [(1, 2)], [(1, 2), (3, 4), (1, 2)], [(INT64_MAX, -1)], [(0, 0), (-5, 5)]]
GRIDS = [[], [[]], [[1, 2], [3, 4]], [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 0], [5, -1, 0], []],
         [[INT64_MAX], [1, 1]], [[1], [2], [3]]]

BY_TYPE = {int: INTS, float: FLOATS, str: STRS, list[int]: INT_LISTS, list[float]: FLOAT_LISTS,
           list[str]: STR_LISTS, list[list[int]]: GRIDS,
           list[tuple[int, int]]: PAIR_LISTS}
BY_NAME = {"n": LOOP_BOUNDS, "k": LOOP_BOUNDS + [-7, 100]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def inputs_for(f):
    hints = typing.get_type_hints(f)
    pools = [BY_NAME[p] if p in BY_NAME and hints[p] is int else BY_TYPE[hints[p]]
             for p in inspect.signature(f).parameters]
    cases = list(itertools.product(*pools))
    step = max(1, len(cases) // MAX_CASES)
    return cases[::step]


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 80, 4000))