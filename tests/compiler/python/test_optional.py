"""Differential tests over corpus_optional (Optional[T] parameters, locals,
results and list elements, `is None` narrowing, `= None` defaults): every
function, compiled natively, gives CPython's value or raises CPython's
exception (differential.py: the native answer itself, no Python fallback).
A None used where a value is needed is an explicit decline: CPython runs the
function and raises its own TypeError."""
import inspect
import math
import typing

import pytest

import corpus_optional as corpus
from differential import corpus_tests, sampled_cases
from native import NativeFallback, check_eligible

MAX_CASES = 60
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

INTS = [0, 1, -1, 2, 7, 10, 12, -100, 2 ** 31, INT64_MAX, INT64_MIN]
OPT_INTS = [None, 0, 1, -1, 7, 12, INT64_MAX, INT64_MIN]
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e300, math.inf, math.nan]
OPT_FLOATS = [None, 0.0, -0.0, 2.5, -1e300, math.inf, math.nan]
STRS = ["", "a", "abc", "42", "007", "héllo wörld", "日本語", "😀 a 😀", "x y z"]
OPT_STRS = [None, "", "a", "hi", "héllo", "日本"]
INT_LISTS = [[], [0], [5], [3, 1, 2, 1], [-1, 5, -1, 7], [INT64_MAX, INT64_MIN], [12, 9, 11, 30]]
OPT_INT_LISTS = [[], [None], [1, None, 3], [None, None], [0, -5, INT64_MAX], [None, 2 ** 40, -1]]
FLOAT_LISTS = [[], [1.5], [0.5, -2.0, 3.25], [-0.0, 0.0], [math.inf, 1.0]]
STR_LISTS = [[], ["a"], ["the", "cat", "hat"], ["héllo", "hé", "日本"], ["", "12", "x", "30"], ["99", "-1", "1"]]
STR_INT_DICTS = [{}, {"a": 1}, {"a": 3, "b": -2, "c": 0}, {"héllo": 7, "x": INT64_MAX}]

BY_TYPE = {int: INTS, float: FLOATS, str: STRS, typing.Optional[int]: OPT_INTS,
           typing.Optional[float]: OPT_FLOATS, typing.Optional[str]: OPT_STRS,
           typing.List[int]: INT_LISTS, typing.List[typing.Optional[int]]: OPT_INT_LISTS,
           typing.List[float]: FLOAT_LISTS, typing.List[str]: STR_LISTS,
           typing.Dict[str, int]: STR_INT_DICTS,
           typing.Optional[typing.List[int]]: [None, [], [1, 2], [INT64_MIN]]}
BY_NAME = {"n": [0, 1, 2, 5, 10, 30, -1], "i": [0, 1, 2, -1, 5, -7], "x": INTS,
           # a memo table long enough for every n (a list changed in place declines on any fault)
           "memo": [[None] * 31, [0, 1] + [None] * 29, [0, 1, 1, 2, 3, 5] + [None] * 25]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def pool(name, hint):
    return BY_NAME[name] if name in BY_NAME and hint in (int, typing.List[typing.Optional[int]]) else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 51, 1300))


def test_none_where_a_value_is_needed_goes_back_to_cpython(suite):
    # Native code never makes up CPython's TypeError: it declines, and CPython raises it.
    for name, args in [("add_optional", (None, 1)), ("scale_optional", (None, 2.0)),
                       ("compare_optional", (None, 3))]:
        with pytest.raises(NativeFallback):
            suite.module.get_function(name)(*args)
    f = suite.module.get_function("add_optional", fallback=corpus.add_optional)
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \+: 'NoneType' and 'int'$"):
        f(None, 1)
    assert f(2, 3) == 5 and f.fallbacks == 1


def test_none_defaults_bind_natively(suite):
    f = suite.module.get_function("clamp", fallback=corpus.clamp)
    assert f(5) == 5 and f(5, 7) == 7 and f(5, high=3) == 3 and f(5, None, None) == 5 and f(-9, low=None) == -9
    g = suite.module.get_function("max_or_none", fallback=corpus.max_or_none)
    assert g([]) is None and g([3, 20, 9], key=10) == 9 and g([3, 20, 9]) == 20
    assert f.fallbacks == 0 and g.fallbacks == 0


def test_results_are_none_or_the_value_itself(suite):
    assert suite.module.get_function("find_index")([4, 5], 6) is None
    assert suite.module.get_function("find_index")([4, 5], 5) == 1
    assert suite.module.get_function("wrap_all")([1, 2, 3]) == [None, 2, None]
    assert suite.module.get_function("optional_list")(-1) is None
    assert suite.module.get_function("falls_off_end")(0) is None


def test_arguments_native_code_cannot_hold_are_declined(suite):
    # A huge int or a str subclass is not representable: the call goes to CPython, never read as None.
    class Name(str):
        pass
    with pytest.raises(NativeFallback):
        suite.module.get_function("value_or_default")(2 ** 70, 0)
    with pytest.raises(NativeFallback):
        suite.module.get_function("is_missing")(Name("x"))
    with pytest.raises(NativeFallback):
        suite.module.get_function("count_present")([1, 2 ** 64])


def test_unions_without_one_value_type_are_refused_or_boxed():
    src = ("from typing import Union, Optional\n"
           "def f(x: Union[int, str]) -> int:\n    return 1\n"
           "def g(x: Optional[None]) -> int:\n    return 1\n"
           "def h(x: int) -> int:\n    y = None\n    return x\n")
    why = dict(check_eligible(src))
    assert why["f"] is None  # a Union of several types is a boxed value (test_boxed.py)
    assert why["g"].endswith("only Optional[T] (None or one type) is native")
    assert why["h"] is None  # a None nobody reads is harmless
