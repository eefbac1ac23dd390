"""Differential tests over corpus_typed (typed code as its authors write it:
typing names, module constants, math, raise/assert, -> None, ** and bit
operators, `in` on tuples, isinstance, classes): every function, compiled
natively, gives CPython's value of the same type or raises CPython's
exception type with its message (differential.py: the native answer itself,
no Python fallback). A `raise` native code does not do itself (TypeError,
KeyError, AssertionError, a message too long for the fault buffer) is an
explicit decline: CPython then runs the function and raises."""
import inspect
import itertools
import math
import typing

import pytest

import corpus_typed as corpus
from differential import corpus_tests
from native import NativeFallback

MAX_CASES = 120
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

INTS = [0, 1, -1, 2, -2, 3, 7, -7, 10, 12, 61, 64, 97, -100, 1024, 2 ** 20, 2 ** 31, 2 ** 53 + 1, INT64_MAX,
        INT64_MIN]
LOOP_BOUNDS = [0, 1, 2, 3, 5, 10, 20, 21, -1, -3]
FLOATS = [0.0, -0.0, 0.5, 1.0, -1.0, 1.5, -2.25, 2.0, 100.0, 1e300, -1e-300, 1e16, math.pi, math.inf, -math.inf,
          math.nan]
BOOLS = [False, True]
STRS = ["", "0", "1", "a", "abc", "Sat", "Sun", "(", "]", "KiB", "héllo wörld", "日本語", "xyz", "9lives",
        "😀a😀", "aaabccdd"]
INT_LISTS = [[], [0], [5], [3, 1, 2, 1], [-1, 5, -1, 7], [1, 2, 3], [INT64_MAX, INT64_MIN], [2 ** 62, 2 ** 62, -3],
             [9, -2, 9, 4, 4, 4, 0]]
FLOAT_LISTS = [[], [1.5], [0.5, -2.0, 3.25], [1e308, 1e308], [3.0, 4.0], [math.nan, 2.0], [-0.0, 0.0, 4.5]]
STR_LISTS = [[], ["a"], ["the", "cat", "the", "hat"], ["héllo", "hé", "日本"], ["", "a"], ["b", "a", "b"]]
GRIDS = [[], [[]], [[1, 2], [3, 4]], [[1, 2, 3], [4, 5, 6]], [[0, 0], [5, -1, 0], []], [[INT64_MAX], [1, 1]]]
INT_PAIRS = [(0, 0), (1, 2), (-5, 5), (INT64_MAX, 1), (INT64_MIN, -1), (3, -7)]
FLOAT_PAIRS = [(0.0, 0.0), (3.0, 4.0), (-1.5, 2.5), (math.inf, 1.0), (math.nan, 0.0), (1e308, -1e308)]
STR_INT_DICTS = [{}, {"a": 1}, {"a": 3, "b": -2, "c": 0}, {"héllo": 7, "x": INT64_MAX}, {"b": 2, "a": 1}]

BY_TYPE = {int: INTS, float: FLOATS, bool: BOOLS, str: STRS, list[int]: INT_LISTS, list[float]: FLOAT_LISTS,
           list[str]: STR_LISTS, list[list[int]]: GRIDS, tuple[int, int]: INT_PAIRS,
           tuple[float, float]: FLOAT_PAIRS, dict[str, int]: STR_INT_DICTS}
BY_NAME = {"n": LOOP_BOUNDS, "k": LOOP_BOUNDS, "exponent": [0, 1, 2, 3, 7, 62, 63, -1],
           "shift": [0, 1, 2, 3, 8, 64, 200, -1], "small": [0, 1, -1, 5, -5, 255, 1 << 40, -(1 << 40)],
           "width": [0, 1, 3, 8, 20, -1], "times": [0, 1, 2, 5, -1]}  # text sizes: CPython would build huge strings

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def builtin_spelling(hint):
    """List[int] -> list[int], Sequence[int] -> list[int] (what the native type is)."""
    origin = typing.get_origin(hint)
    if origin is None:
        return hint
    origin = {typing.Sequence: list}.get(origin, origin)
    import collections.abc
    origin = {collections.abc.Sequence: list}.get(origin, origin)
    return origin[tuple(builtin_spelling(a) for a in typing.get_args(hint))]


def inputs_for(f):
    hints = {p: builtin_spelling(h) for p, h in typing.get_type_hints(f).items()}
    # Keyword-only parameters keep their defaults (calls passing them are in the corpus).
    positional = [p for p, v in inspect.signature(f).parameters.items() if v.kind != v.KEYWORD_ONLY]
    pools = [BY_NAME[p] if p in BY_NAME and hints[p] is int else BY_TYPE[hints[p]] for p in positional]
    cases = list(itertools.product(*pools))
    step = max(1, len(cases) // MAX_CASES)
    return cases[::step]


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 120, 4000))


def test_raises_native_code_does_not_do_are_declines(suite):
    # TypeError, AssertionError, an over-long message and `raise ... from e` go back to CPython.
    for name, args in [("typed_check", (1001,)), ("assert_plain", (7,)), ("long_message", (-1,)),
                       ("checked_quotient", (1, 0))]:
        with pytest.raises(NativeFallback):
            suite.module.get_function(name)(*args)


def test_a_key_and_a_reraise_in_a_handler_are_raised_natively(suite):
    with pytest.raises(KeyError) as e:
        suite.module.get_function("custom_raise")(-1)
    assert type(e.value) is KeyError and e.value.args == (-1,)
    for name, args in [("count_then_reraise", ([1, 2, 3], 0)), ("reraise_unless_index", ([0, 5], 1))]:
        with pytest.raises(ZeroDivisionError) as e:
            suite.module.get_function(name)(*args)
        assert type(e.value) is ZeroDivisionError and e.value.args == ("integer division or modulo by zero",)


def test_raised_messages_are_native(suite):
    f = suite.module.get_function("require_positive")
    with pytest.raises(ValueError) as e:
        f(-3)
    assert e.value.args == ("expected a positive number, got -3",)
    with pytest.raises(ZeroDivisionError, match="^checked_div by zero$"):
        suite.module.get_function("checked_div")(1, 0)
    assert suite.module.get_function("noop")(5) is None


def test_python_calls_bind_keywords_and_defaults_natively(suite):
    f = suite.module.get_function("ratio", fallback=corpus.ratio)
    assert f(3) == 3.0 and f(3, b=0, strict=False) == 0.0 and f(b=2, a=3) == 1.5
    assert f.fallbacks == 0
    # What CPython refuses, CPython refuses: the call runs in Python and raises its TypeError.
    with pytest.raises(TypeError, match="positional arguments but 3 were given"):
        f(3, 4, False)
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        f(3, c=1)
    assert f.fallbacks == 2


def test_a_list_changed_in_place_is_the_callers_list(suite):
    f = suite.module.get_function("shell_sort", fallback=corpus.shell_sort)
    xs = [5, -1, 3, 2 ** 40, 0]
    assert f(xs) is None and xs == [-1, 0, 3, 5, 2 ** 40] and f.fallbacks == 0
    # One list passed for two parameters: native copies would part, so CPython runs it.
    g = suite.module.get_function("append_squares", fallback=corpus.append_squares)
    ys = [7]
    assert g(ys, 3) == 4 and ys == [7, 0, 1, 4]
    # A failing call leaves the list as CPython leaves it (CPython runs it from the start).
    h = suite.module.get_function("pop_last", fallback=corpus.pop_last)
    with pytest.raises(IndexError, match="pop_last"):
        h([])
    assert h.fallbacks == 1


def test_a_dict_changed_in_place_is_the_callers_dict(suite):
    f = suite.module.get_function("count_into", fallback=corpus.count_into)
    counts = {"b": 1, "a": 5}
    assert f(counts, ["a", "c", "b", "c"]) is None and list(counts.items()) == [("b", 2), ("a", 6), ("c", 2)]
    assert f.fallbacks == 0
    # A failing call leaves the dict as CPython leaves it (CPython runs it from the start).
    g = suite.module.get_function("bump_all", fallback=corpus.bump_all)
    big = {"x": 2 ** 62, "y": 1}
    assert g(big, 2 ** 62) == 3 and big == {"x": 2 ** 63, "y": 2 ** 62 + 1, "new": 2 ** 62} and g.fallbacks == 1


def test_raise_from_and_reraise_are_cpythons_own(suite):
    # Handed back, CPython runs the function and raises with its own cause and re-raised exception.
    checked = suite.module.get_function("checked_quotient", fallback=corpus.checked_quotient)
    with pytest.raises(ValueError, match="division by zero in checked_quotient") as info:
        checked(1, 0)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    reraise = suite.module.get_function("count_then_reraise", fallback=corpus.count_then_reraise)
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        reraise([1, 2, 3], 0)
    assert reraise([1, 2], 0) == -2
