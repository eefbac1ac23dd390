"""Differential tests over corpus_try_finally: return, break and continue
leaving try ... finally (finally runs first; a return value is computed
before it; a return, break or continue in finally replaces what was pending,
an exception included). Every answer is the native function's own
(differential.py: no Python fallback)."""
import typing

import corpus_try_finally as corpus
from differential import corpus_tests, inputs_by, python_callable

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {int: [0, 1, -3, 4, 5, 12, INT64_MIN], str: ["", "12", "x7", " 3 "],
           typing.List[int]: [[], [0], [4, -1, 7, 0, 9], [3, 5, 2, 200, 1], [-2, -4], [INT64_MAX, 1]],
           typing.List[str]: [[], ["a"], ["tea", "cake", "tea"], ["x", "jam"]],
           typing.List[typing.List[int]]: [[], [[]], [[1, 5, -2, 9], [], [3]], [[-1], [7, 7]]],
           typing.Dict[str, int]: [{}, {"tea": 3, "cake": 40}, {"tea": -1, "jam": 99, "cake": 7}],
           typing.Any: [None, {"a": 1}, {"a": None, "b": "x"}, [1, 2], "text", 5]}
BY_NAME = {"i": [0, 1, -1, 2, 5], "limit": [0, 5, 100], "attempts": [1, 2, 4], "fail_until": [0, 1, 3, 6],
           "divisor": [0, 3, -2], "key": ["a", "b", "zz"], "keys": [[], ["a"], ["b", "a", "q"]],
           "names": [[], ["tea"], ["tea", "jam", "cake"], ["cake", "cake", "cake"]]}

FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 20, 250))
