"""Differential tests over str, containers and classes: every function of
corpus_containers, compiled natively, must give the same result with the
same type, or raise the same exception type with the same message, as
CPython (differential.py: the native answer itself, no Python fallback);
its arguments must be left as they were. Inputs come from the annotations (pools below), so
edge values (empty containers, negative indices, missing keys, non-ASCII
text, values of another type) reach every function."""
import copy
import inspect
import itertools
import math
import typing

import pytest

import corpus_containers as corpus
from differential import DECLINED, corpus_tests, outcome
from native import NativeFallback, module_loader, simple_compile

MAX_CASES = 120

INTS = [0, 1, 2, 3, -1, -2, 7, -5, 2 ** 62, 2 ** 63 - 1, -(2 ** 63)]
SMALL = [0, 1, 2, 3, 5]
STRS = ["", "a", "abc", "a b  c", "  pad me\t", "héllo wörld", "日本語テキスト", "Hello World", "x,y,,z", "1234",
        "-12", " +7 ", "1_000", "12a", "ABC", "aBc", "'q\"", "\u2003sp\u3000", "é", "😀a😀", "9223372036854775808"]
FLOATS = [0.0, -1.5, 2.25, 1e300, math.inf, math.nan]
INT_LISTS = [[], [0], [3, 1, 2, 1], [-1, 5, -1, 7], [2, 4, 6], [5, 4, 3, 2, 1, 0], [2 ** 62, 2 ** 62]]
STR_LISTS = [[], ["a"], ["b", "a", "b"], ["héllo", "x", "日本"], ["", "z", "aa", "a"], ["the", "cat", "the", "hat"]]
FLOAT_LISTS = [[], [1.5], [0.5, -2.0, 3.25], [math.nan, 1.0], [1.0, math.nan]]
STR_INT_DICTS = [{}, {"a": 1}, {"b": 2, "a": 1, "c": 3}, {"é": 5, "x": -1}]
INT_INT_DICTS = [{}, {1: 10}, {3: 30, 1: 10, 2: 20}, {-1: 0, 2 ** 62: 1}, {2 ** 63 - 1: -(2 ** 63)}]
GRIDS = [[], [[]], [[1, 2], [3]], [[0, 0], [5, -1, 0], []], [[2 ** 62], [2 ** 62, 2 ** 62]]]
INT_SETS = [set(), {1}, {3, 1, 2}, {-5, 5}]
PAIRS_IS = [(0, ""), (1, "a"), (-3, "héllo"), (1, "b")]
PAIR_LISTS = [[], [(1, 2)], [(1, 2), (3, 4), (1, 2)], [(5, 0), (0, 5)]]
PAIR_STR_LISTS = [[], [(2, "b"), (1, "z"), (2, "a")], [(0, "é"), (0, "e")]]

BY_TYPE = {
    int: INTS, str: STRS, float: FLOATS, bool: [False, True],
    list[int]: INT_LISTS, list[str]: STR_LISTS, list[float]: FLOAT_LISTS, list[list[int]]: GRIDS,
    dict[str, int]: STR_INT_DICTS, dict[int, int]: INT_INT_DICTS, set[int]: INT_SETS,
    tuple[int, str]: PAIRS_IS, tuple[int, int, int]: [(1, 2, 3), (0, -1, 5)],
    list[tuple[int, int]]: PAIR_LISTS, list[tuple[int, str]]: PAIR_STR_LISTS,
    dict[str, list[int]]: [{}, {"a": []}, {"a": [1, 2], "b": [2 ** 62, 2 ** 62]}, {"é": [3]}],
}
# Parameters whose value sets a loop count or a code point get their own pools.
BY_NAME = {"n": SMALL, "pops": [0, 1, 2, 4], "k": [1, 2, -1, -3, 0, 3], "a": [65, 97, 0x10FFFE, 0xD7FF, -1],
           "i": [0, 1, -1, 2, -4, 10]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def inputs_for(f):
    hints = typing.get_type_hints(f)
    pools = []
    for p in inspect.signature(f).parameters:
        pools.append(BY_NAME.get(p) if p in BY_NAME and hints[p] is int else BY_TYPE[hints[p]])
    cases = list(itertools.product(*pools))
    step = max(1, len(cases) // MAX_CASES)
    return cases[::step]


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 40, 3000))


# Values of another type than the annotation says: native code must decline them.
UNREPRESENTABLE = {list[int]: [[1, True], [1, 2.5], [2 ** 63]], list[float]: [[1, 2.0]],
                   dict[str, int]: [{"a": True}], str: ["a\ud800"]}


def test_unrepresentable_arguments_are_declined(suite):
    checked = 0
    for f in FUNCTIONS:
        hints = typing.get_type_hints(f)
        params = list(inspect.signature(f).parameters)
        first = inputs_for(f)[0]
        for i, p in enumerate(params):
            for bad in UNREPRESENTABLE.get(hints[p], ()):
                args = first[:i] + (bad,) + first[i + 1:]
                assert outcome(suite.module.get_function(f.__name__), copy.deepcopy(args)) is DECLINED, (f.__name__, args)
                with_fallback = suite.module.get_function(f.__name__, fallback=f)
                assert outcome(with_fallback, copy.deepcopy(args)) == outcome(f, copy.deepcopy(args))
                checked += 1
    assert checked > 50


def test_boundary_views_and_results(suite):
    native_module = suite.module
    # Values Python gives natively only when native code can reproduce them exactly;
    # everything else is computed by CPython (a subclass keeps its type there, a huge
    # int stays exact, a lone surrogate is not UTF-8).
    import enum

    class Num(enum.IntEnum):
        ONE = 1

    class S(str):
        pass

    raw = native_module.get_function("l_index")
    assert raw([5, 6, 7], -1) == 7
    for args in (([Num.ONE], 0), ([2 ** 64], 0), ([True], 0), ((5, 6), 0)):
        with pytest.raises(NativeFallback):
            raw(*args)
    with pytest.raises(NativeFallback):
        native_module.get_function("s_len")(S("abc"))
    with pytest.raises(NativeFallback):
        native_module.get_function("s_len")("a\ud800")
    with pytest.raises(NativeFallback):
        native_module.get_function("s_len")(s="abc")
    fast = native_module.get_function("s_len", fallback=corpus.s_len)
    assert fast("a\ud800") == 2 and fast(S("xy")) == 2
    # Results are built as Python objects of exactly the declared types.
    pairs = native_module.get_function("t_sort_pairs")([(2, "b"), (1, "z")])
    assert pairs == [(1, "z"), (2, "b")] and type(pairs[0]) is tuple
    inverted = native_module.get_function("d_invert")({"a": 1, "b": 1, "c": 2})
    assert inverted == {1: ["a", "b"], 2: ["c"]} and list(inverted) == [1, 2]
    assert native_module.get_function("s_split_sep")("é,ü,", ",") == ["é", "ü", ""]


def test_compile_function_object_with_its_classes(tmp_path):
    # A function object brings the classes it uses along (seed 001's simple_compile).
    path = str(tmp_path / "stack.so")
    assert simple_compile(corpus.c_stack, path) == ["c_stack"]
    assert module_loader(path).get_function("c_stack")([1, 2, 3], 2) == 32 + len("stack")
