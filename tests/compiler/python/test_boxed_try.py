"""Differential tests over corpus_boxed_try: try/except/finally in functions
with boxed values, where CPython's own exceptions (a boxed operation's, a
user method's) and native faults (a typed list's IndexError, a typed dict's
KeyError) are matched by CPython's `except` rules, bound with `as e`, and go
on unchanged when no clause takes them. Every answer is the native
function's own (differential.py: no Python fallback)."""
import gc
import inspect
import math
import sys
import typing
import weakref

import pytest

import corpus_boxed_try as corpus
from differential import corpus_tests, sampled_cases
from native import NativeFallback, module_loader, simple_compile

MAX_CASES = 40
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

ANYS = [None, 0, 1, -7, True, INT64_MAX, INT64_MIN, 2 ** 70, 2.5, -0.0, math.inf, "", "abc", "héllo 日本",
        "12", [], [1, "a"], (1, 2), {"k": 1}]
RECORDS = [{}, {"name": "bob", "count": "3"}, {"count": 7, "k": None}, {"count": "x", 1: "one"},
           {"count": None}, {"count": 2 ** 70}, {"日本": {"k": 1}, "count": 2.5}, [10, 20], "text", None, 5]
KEYS = ["name", "count", "k", "日本", 0, 1, -1, 2 ** 70, None, [1], (1, 2)]
LISTS = [[], [1, 2, 3], [1, "a", 2.5], ["1", "x", " 4 ", None, [2]], [INT64_MAX, 1], [-1, 0, True],
         ["héllo", "日本"], [2 ** 65, -3], [float("nan"), "inf"]]
INT_LISTS = [[], [0], [1, -2, 3], [INT64_MAX], [INT64_MIN, -1], [5, 5, 5, 0]]
STR_INT_DICTS = [{}, {"a": 1}, {"héllo": -2, "b": INT64_MAX}, {"": 0, "z": 3}]
STRS = ["", "a", "héllo", "count", "z"]
INTS = [0, 1, -1, 7, INT64_MAX, INT64_MIN, 3]

BY_NAME = {"record": RECORDS, "container": RECORDS, "data": [{"a": {"b": 1}}, {"a": {}}, {"a": 3}, {}, [{"b": 2}]],
           "key": KEYS, "alias": ["name", 0, "missing"], "log": [[], ["x"]], "outer": ["a", 0], "inner": ["b", 0],
           "keys": [[], ["name", "count"], ["k", 0, "k"]],
           "text": ["", "  hello world", "日本 語", 5, None, ["a"]], "items": LISTS, "values": LISTS}
BY_TYPE = {typing.Any: ANYS, list: LISTS, typing.List[int]: INT_LISTS, typing.Dict[str, int]: STR_INT_DICTS,
           str: STRS, int: INTS, dict: [{}, {"a": 1, 2: "b"}, {(1, 2): 3.5}]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def pool(name, hint):
    boxed = hint in (typing.Any, object, list, dict)  # the names' pools are for boxed parameters
    return BY_NAME[name] if name in BY_NAME and boxed else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 26, 700))


class Invalid(ValueError):
    """A user's exception class: a subclass of a builtin one."""


class Reading:
    """A user type whose methods raise, as validation code's objects do."""

    def __init__(self, value):
        self.value = value

    def split(self):
        if self.value is None:
            raise Invalid("no reading", 42)
        if self.value == "boom":
            raise RuntimeError("sensor failed")
        return [self.value]

    def __add__(self, other):
        raise Invalid(f"cannot add {other!r}")


def test_a_user_methods_exception_is_matched_by_its_class(suite):
    first = suite.module.get_function("first_word_upper")
    # Invalid is no AttributeError or IndexError: it goes on as it was raised, the same object.
    with pytest.raises(Invalid) as e:
        first(Reading(None))
    assert e.value.args == ("no reading", 42) and type(e.value) is Invalid
    with pytest.raises(RuntimeError, match="^sensor failed$"):
        first(Reading("boom"))
    assert first(Reading("abc")) == "ABC"
    # A subclass of ValueError is taken by `except (TypeError, ValueError) as e`, and e is it.
    ratio = suite.module.get_function("ratio")
    assert ratio(Reading(1), 0) == ("unsupported operand type(s) for /: 'Reading' and 'int'",)
    add = suite.module.get_function("add_checked")
    with pytest.raises(Invalid, match="^cannot add 1$"):
        add(Reading(1), 1)


def test_the_caught_exception_is_cpythons_object(suite):
    args = suite.module.get_function("missing_key_args")
    key = ("a", 1)
    assert args({}, key) == (key,) and args({}, key)[0] is key
    with pytest.raises(IndexError, match="^list index out of range$"):
        args([], 0)
    # A typed dict's KeyError carries the key itself, as CPython's does.
    assert suite.module.get_function("typed_count")({"a": 1}, "gone", 5) == (5, "gone", "'gone'")


def test_no_exception_stays_pending_and_nothing_leaks(suite):
    # After a handler took it, nothing is set in the interpreter; objects are freed as in CPython.
    get_field = suite.module.get_function("get_field")
    logged = suite.module.get_function("lookups_logged")
    default = object()
    before = sys.getrefcount(default)
    for _ in range(200):
        assert get_field({}, "k", default) is default
        assert logged({"a": 1}, ["a", "b"]) == [1, 1, "missing", 3]
    assert sys.getrefcount(default) == before
    assert sys.exc_info() == (None, None, None)
    reraised = suite.module.get_function("reraised")
    with pytest.raises(KeyError) as e:
        reraised({}, "gone")
    assert e.value.args == ("gone",)
    key = "k" * 30
    refs = sys.getrefcount(key)
    for _ in range(100):
        try:
            reraised({}, key)
        except KeyError as e:
            assert e.args[0] is key
    gc.collect()  # a raised exception's traceback holds its frames in a cycle, natively or not
    assert sys.getrefcount(key) == refs


def test_finally_runs_while_a_cpython_exception_passes(suite):
    length = suite.module.get_function("length_then_log")
    assert length(5) == ["start", "object of type 'int' has no len()", "end"]
    assert length("ab") == ["start", 2, "end"]


class Probe:
    """A mapping that reports the exception being handled when it is asked for "seen"."""

    def __getitem__(self, key):
        if key == "seen":
            return repr(sys.exc_info()[1])
        raise KeyError(key)


def test_the_exception_being_handled_is_cpythons_while_a_handler_runs(suite):
    alias = suite.module.get_function("field_or_alias")
    with pytest.raises(KeyError) as e:
        alias({}, "a", "b")
    assert e.value.args == ("b",) and repr(e.value.__context__) == "KeyError('a')"
    assert alias(Probe(), "a", "seen") == "KeyError('a')" and sys.exc_info() == (None, None, None)
    attempt = suite.module.get_function("record_attempt")
    log = []
    with pytest.raises(KeyError) as e:
        attempt(log, {}, "k")
    assert log == [0] and e.value.args == ("k",)
    assert attempt(log, {"k": 7}, "k") == 7 and log == [0, 1]


def test_a_helpers_cpython_exception_is_matched_by_cpythons_rules(suite, tmp_path):
    # combined_length has no boxed value of its own; the helper it calls raises CPython's TypeError.
    assert suite.module.get_function("combined_length")("a", 1) == -1
    # Reached through a method (not followed natively), it hands the call to CPython instead.
    source = ("from typing import Any\ndef combine(a: Any, b: Any) -> Any:\n    return a + b\n"
              "class Joiner:\n    def __init__(self, sep: str) -> None:\n        self.sep = sep\n"
              "    def join(self, x: str, n: int) -> int:\n        return len(str(combine(x, n)))\n"
              "def joined_length(x: str, n: int) -> int:\n    j = Joiner('-')\n    try:\n"
              "        return j.join(x, n)\n    except TypeError:\n        return -1\n")
    simple_compile(source, str(tmp_path / "joiner.so"))
    module = module_loader(str(tmp_path / "joiner.so"))
    namespace = {}
    exec(source, namespace)
    joined = module.get_function("joined_length", fallback=namespace["joined_length"])
    assert joined("a", 1) == -1 and joined.fallbacks == 1
    with pytest.raises(NativeFallback, match="a Python exception native handlers cannot match"):
        module.get_function("joined_length")("a", 1)
    assert sys.exc_info() == (None, None, None)


class Count:
    """A count whose int() raises a user's ValueError, recorded to see it freed."""

    raised = []

    @staticmethod
    def error():
        error = Invalid("not a count")
        Count.raised.append(weakref.ref(error))
        return error

    def __int__(self):
        raise Count.error()  # no frame of the traceback holds it: freed with its last reference


def test_a_caught_exception_is_freed_when_its_handler_ends(suite):
    parse_count = suite.module.get_function("parse_count")
    assert parse_count({"count": Count()}) == "bad count: not a count"
    assert len(Count.raised) == 1 and Count.raised[0]() is None
