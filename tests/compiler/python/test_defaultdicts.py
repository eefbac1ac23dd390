"""Differential tests over corpus_defaultdicts (collections.defaultdict and
Counter locals as counting and grouping code writes them): every entry point,
compiled natively, gives CPython's value or raises CPython's exception with
its message (differential.py: the native answer itself, no Python fallback).
A defaultdict or Counter that could reach Python as a plain dict, or a form whose
meaning native code cannot keep, is refused with a CompileError."""
import typing

import pytest

import corpus_defaultdicts as corpus
from differential import corpus_tests, inputs_by, python_callable
from native import check_eligible

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {int: [0, 1, 2, -1, 4], str: ["", "a", "ab", "é", "the"],
           typing.List[int]: [[], [0], [1, 2], [3, 1, 2, 1], [-1, 5, -1, 7, 5, 5], [INT64_MAX, INT64_MIN, 0, 0],
                              [2, 0, 1, 3, 3, 2, 0, 4], [1, 2, 2, 3, 3, 4, 9, 9], list(range(10)),
                              [7, 7, 7, 7], [5, -5, 10, -10, 15]],
           typing.List[str]: [[], ["a"], ["the", "cat", "the", "hat"], ["", "é", "É", "é", ""],
                              ["ab", "abc", "b", "ab", "a"], ["pip"] * 4, ["ünï", "code", "ü", "cat", "dog"],
                              ["x" * n for n in range(6)], ["b", "a", "b", "c", "a", "b"]]}
BY_NAME = {"text": ["", "a", "abab", "mississippi", "ééé", "the cat sat on the mat"],
           "probe": ["", "a", "the", "zz"], "start": [0, 1, 3, -1, 9], "k": [0, 1, 2, 3, 4, 7, -1]}

FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 17, 250))

HEAD = "from collections import Counter, defaultdict\nfrom typing import Dict, List\n\n\n"


def why_not(body):
    return dict(check_eligible(HEAD + body))["f"]


@pytest.mark.parametrize("body, why", [
    ("def f(n: int) -> Dict[int, int]:\n    d: Dict[int, int] = defaultdict(int)\n    d[n] += 1\n    return d\n",
     "DefaultDict: defaultdict 'd' used as a value"),
    ("def g(d: Dict[int, int]) -> int:\n    return len(d)\n\n\n"
     "def f(n: int) -> int:\n    d: Dict[int, int] = defaultdict(int)\n    return g(d)\n",
     "DefaultDict: defaultdict 'd' used as a value"),
    ("def f(n: int) -> int:\n    d: Dict[int, int] = defaultdict(int)\n    e = d\n    return len(e)\n",
     "DefaultDict: defaultdict 'd' used as a value"),
    ("def f(n: int) -> str:\n    d: Dict[int, int] = defaultdict(int)\n    return f'{d}'\n",
     "DefaultDict: defaultdict 'd' used as a value"),
    ("def f(n: int) -> int:\n    d: Dict[int, int] = defaultdict(int)\n    return len(d.copy())\n",
     "DefaultDict: defaultdict 'd' used as a value"),
    ("def f(n: int) -> int:\n    d = defaultdict(int)\n    d[n] += 1\n    return d[n]\n",
     "DefaultDict: a defaultdict natively is a local declared with its types"),
    ("def f(n: int) -> float:\n    d: Dict[int, float] = defaultdict(int)\n    return d[n]\n",
     "DefaultDict: defaultdict(F) natively needs F to be the annotated value type"),
    ("def f(n: int) -> int:\n    d: Dict[int, int] = defaultdict(lambda: 1)\n    return d[n]\n",
     "DefaultDict: defaultdict(F) natively needs F to be the annotated value type"),
    ("def f(n: int) -> int:\n    d: Dict[int, List[int]] = defaultdict(list)\n    d[n] += [n]\n    return len(d[n])\n",
     "DefaultDict: `d[k] op= v` on a defaultdict of mutable values"),
    ("def f(n: int) -> int:\n    d: Dict[int, int] = defaultdict(int)\n    d = defaultdict(int)\n    return d[n]\n",
     "DefaultDict"),
])
def test_defaultdicts_native_code_cannot_keep_are_refused(body, why):
    assert why in why_not(body)


@pytest.mark.parametrize("body, why", [
    ("def f(xs: List[int]) -> int:\n    c = Counter(xs)\n    del c[0]\n    return len(c)\n",
     "Counter: del c[k]: a Counter ignores a missing key, a dict raises"),
    ("def f(xs: Dict[int, int]) -> int:\n    c = Counter(xs)\n    return len(c)\n",
     "Counter: Counter(x) natively counts a list, str, tuple or set parameter or a comprehension"),
    ("def f(xs: List[int]) -> int:\n    ys = xs\n    c = Counter(ys)\n    return len(c)\n",
     "Counter: Counter(x) natively counts a list, str, tuple or set parameter"),
    ("def f(xs: List[int]) -> int:\n    c = Counter(xs)\n    c.update(xs)\n    return len(c)\n",
     "DefaultDict: counter 'c' used as a value"),
    ("def f(xs: List[int]) -> int:\n    c = Counter(xs)\n    return sum(c.elements())\n",
     "DefaultDict: counter 'c' used as a value"),
    ("def f(xs: List[int]) -> bool:\n    c = Counter(xs)\n    return c == Counter(xs)\n",
     "DefaultDict: counter 'c' used as a value"),
    ("def f(xs: List[int]) -> Dict[int, int]:\n    c = Counter(xs)\n    return c\n",
     "DefaultDict: counter 'c' used as a value"),
    ("def f(xs: List[int]) -> int:\n    c = Counter(xs)\n    return len(c.most_common(len(xs)))\n",
     "Counter: most_common(n) natively takes n as a name or an int constant"),
    ("def f(xs: List[int]) -> int:\n    c = Counter(a=1)\n    return len(c)\n",
     "Counter: Counter() of one iterable (no keywords) natively"),
    ("def f(xs: List[int]) -> int:\n    c: Dict[int, str] = Counter(xs)\n    return len(c)\n",
     "Counter: a Counter natively is a local"),
])
def test_counters_native_code_cannot_keep_are_refused(body, why):
    assert why in why_not(body)
