"""Differential tests over corpus_boxed_args: typed containers and values
passed to helpers whose parameters hold boxed values (bare list/dict, Any).
Such an argument becomes a new Python object, a copy: exact where the helper
only reads the parameter (readonly.py), refused where the helper could
change it, keep it or test its identity, since CPython passes the caller's
own object. Every answer is the native function's own (differential.py)."""
import inspect
import typing

import corpus_boxed_args as corpus
from differential import corpus_tests, sampled_cases
from native import check_eligible

MAX_CASES = 40
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {typing.List[int]: [[], [0], [1, -2, 3], [INT64_MAX], [INT64_MIN, -1], [5, 5, 5, 0], [-4, -4]],
           typing.Dict[str, int]: [{}, {"a": 1}, {"héllo": -2, "b": INT64_MAX}, {"": 0, "z": 3}],
           str: ["", "a", "héllo", "z"], int: [0, 1, -1, 7, INT64_MAX, INT64_MIN, 3],
           typing.Any: [None, 0, -7, 2 ** 70, 2.5, "", "日本", [], [1, "a"], {"k": 1}],
           list: [[], [1, 2, 3], [1, "a"], [2.5, -1], [None]], dict: [{}, {"a": 1, 2: "b"}, {(1, 2): 3.5}]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def inputs_for(f):
    return sampled_cases(f, lambda name, hint: BY_TYPE[hint], MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 18, 250))


def test_a_helper_that_changes_or_keeps_a_bare_list_is_refused_a_typed_one():
    helper = ("from typing import Any, Dict, List\ndef add_one(xs: list) -> None:\n    xs.append(1)\n"
              "def keep(xs: list) -> list:\n    return xs\n"
              "def same(xs: list, ys: list) -> bool:\n    return xs is ys\n"
              "def alias(x: Any) -> None:\n    y = x\n    y.append(2)\n"
              "def bump(d: dict) -> None:\n    d['x'] = 1\n")
    callers = ("def f(xs: List[int]) -> int:\n    add_one(xs)\n    return len(xs)\n"
               "def g(xs: List[int]) -> int:\n    return len(keep(xs))\n"
               "def h(xs: List[int]) -> bool:\n    return same(xs, xs)\n"
               "def k(xs: List[int]) -> int:\n    alias(xs)\n    return len(xs)\n"
               "def b(d: Dict[str, int]) -> int:\n    bump(d)\n    return len(d)\n")
    why = dict(check_eligible(helper + callers))
    for caller in "fghkb":
        assert why[caller] is not None and "BoxedArgument" in why[caller], (caller, why[caller])
    # A new list, which nothing else can see, may be changed by the helper: it is copied exactly.
    fresh = helper + "def m(n: int) -> int:\n    add_one([n])\n    return n\n"
    assert dict(check_eligible(fresh))["m"] is None
