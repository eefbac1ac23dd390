"""Differential tests over corpus_vartuple (tuple[T, ...] of any length):
every function, compiled natively, gives CPython's value or raises CPython's
exception with its message (`tuple index out of range`; differential.py:
the native answer itself, no Python fallback). A list where a tuple is
annotated is not representable: the call goes back to CPython."""
import inspect
import typing

import pytest

import corpus_vartuple as corpus
from differential import corpus_tests, sampled_cases
from native import NativeFallback, check_eligible

MAX_CASES = 60
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

INTS = [0, 1, -1, 2, 3, -4, 7, 100, INT64_MAX, INT64_MIN]
INT_TUPLES = [(), (0,), (5,), (3, 1, 2, 1), (-1, 5, -1, 7), (INT64_MAX, INT64_MIN), (1, 2, 3, 4, 5, 6)]
STR_TUPLES = [(), ("a",), ("the", "cat", "hat"), ("héllo", "hé", "日本"), ("", "😀"), ("b", "a", "b", "a")]
INT_LISTS = [[], [0], [3, 1, 2], [INT64_MIN, INT64_MAX], [4, 4, 4, 4, 4]]
ROWS = [[], [(1, 2)], [(1, 2), (3, -4), (0, 0)], [(5, 6), (7,)], [(1, 2, 3)], [(-1, 2)] * 4]
PATH_TABLES = [{}, {(): "root", (0,): "a", (0, 1): "ab"}, {(1, 2, 3): "héllo", (-1,): "neg"}]

BY_TYPE = {int: INTS, typing.Tuple[int, ...]: INT_TUPLES, tuple[int, ...]: INT_TUPLES, typing.Tuple[str, ...]: STR_TUPLES,
           typing.List[int]: INT_LISTS, typing.List[typing.Tuple[int, ...]]: ROWS,
           typing.Dict[typing.Tuple[int, ...], str]: PATH_TABLES}
BY_NAME = {"n": [0, 1, 2, 5, 10, -1], "k": [0, 1, 2, 3, -1], "i": [0, 1, -1, 2, -2, 3, -7, 7],
           "pair": [(1, 2), (5, -3), (INT64_MIN, INT64_MAX), (0, 0), (), (1, 2, 3)]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def inputs_for(f):
    return sampled_cases(f, lambda name, hint: BY_NAME[name] if name in BY_NAME else BY_TYPE[hint], MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 34, 600))


def test_index_errors_are_tuples_own(suite):
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        suite.module.get_function("item_at")((1, 2), -3)
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        suite.module.get_function("item_at")((), 0)
    assert suite.module.get_function("item_at")((1, 2), -1) == 2


def test_results_are_tuples(suite):
    got = suite.module.get_function("appended")((1, 2), 3)
    assert type(got) is tuple and got == (1, 2, 3)
    assert suite.module.get_function("empty_tuple")() == ()
    assert suite.module.get_function("group_counts")([0, 1, 5, 2]) == {(): 1, (0,): 2, (0, 1): 1}
    with pytest.raises(KeyError) as e:
        suite.module.get_function("lookup_path")({(1,): "x"}, (1, 2))
    assert e.value.args == ((1, 2),)


def test_a_list_where_a_tuple_is_annotated_is_declined(suite):
    # CPython keeps the list a list (tuple_len([1]) == 1 there); native code only holds tuples.
    with pytest.raises(NativeFallback):
        suite.module.get_function("tuple_len")([1, 2])
    with pytest.raises(NativeFallback):
        suite.module.get_function("tuple_sum")((1, True))
    f = suite.module.get_function("tuple_len", fallback=corpus.tuple_len)
    assert f([1, 2]) == 2 and f.fallbacks == 1


def test_unpacking_the_wrong_length_is_cpythons_valueerror(suite):
    assert suite.module.get_function("span")((4, 9)) == 9
    with pytest.raises(NativeFallback):
        suite.module.get_function("span")((1, 2, 3))
    f = suite.module.get_function("span", fallback=corpus.span)
    with pytest.raises(ValueError, match=r"^not enough values to unpack \(expected 2, got 1\)$"):
        f((1,))


@pytest.mark.parametrize("body, reason", [
    ("t.append(1)\n    return 0", "'tuple.append' is not supported"),
    ("t[0] = 1\n    return 0", "item assignment to tuple[int, ...]"),
    ("return t.index(1)", "'tuple.index' is not supported"),  # its ValueError message is not list's
])
def test_tuples_are_never_changed_natively(body, reason):
    why = dict(check_eligible(f"from typing import Tuple\ndef f(t: Tuple[int, ...]) -> int:\n    {body}\n"))
    assert reason in why["f"]
