"""Differential tests over corpus_boxed (Any, object, Union[A, B], bare
list/dict): every function, compiled natively, gives CPython's value or
raises CPython's exception with its message (differential.py: the native
answer itself, no Python fallback). Boxed values are the caller's own
objects, so identity survives a round trip; a boxed value where native code
needs a typed one (an `-> int` result that is a float, range() of a bool) is
an explicit decline, and CPython computes the call."""
import inspect
import math
import os
import typing

import pytest

import corpus_boxed as corpus
from differential import corpus_tests, sampled_cases
from native import CompileError, NativeFallback, check_eligible, module_loader, simple_compile

MAX_CASES = 40
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

ANYS = [None, 0, 1, -7, True, False, INT64_MAX, INT64_MIN, 2 ** 70, 2.5, -0.0, math.inf, "", "abc",
        "héllo 日本", [], [1, "a"], (1, 2), {"k": 1}]
NUMBERS = [0, 1, -3, 7, INT64_MAX, INT64_MIN, 2 ** 64, 0.5, -2.25, True]
LISTS = [[], [1, 2, 3], [1, 2.5, True], ["a", "b"], [None, 0, ""], [INT64_MAX, 1], [2 ** 65, -1],
         [[1, 2], [3]], ["héllo", "日本"]]
STR_DICTS = [{}, {"name": "bob", "id": 1}, {"name": 12, "status": "ok"}, {"id": 2 ** 70, "status": None},
             {"name": "日本", "x": [1, 2]}]
DICTS = STR_DICTS + [{1: "one", "two": 2}, {(1, 2): None, 2.5: "x"}]
RECORDS = [[], [{"id": 1, "status": "ok"}], [{"id": 2, "status": "fail", "n": 3}, {"status": "ok", "n": 2.5}],
           [{"n": "a"}, {"id": "x"}]]
STRS = ["", "name", "id", "status", "n", "héllo"]
STR_LISTS = [[], ["a"], ["the", "cat", "the"], ["héllo", "日本", "héllo"], ["name", "id"]]
INTS = [0, 1, 2, 5, -1, INT64_MAX]

BY_TYPE = {typing.Any: ANYS, object: ANYS, list: LISTS, typing.List[typing.Any]: LISTS,
           typing.Dict[str, typing.Any]: STR_DICTS, dict: DICTS, typing.Union[int, float]: NUMBERS,
           typing.List[str]: STR_LISTS, typing.List[typing.Dict[str, typing.Any]]: RECORDS, int: INTS,
           str: STRS, typing.Union[str, typing.List[int]]: ["", "abc", [], [1, 2, 3]],
           typing.Union[int, str]: [0, -5, INT64_MAX, "", "héllo", True]}
COUNTS = [0, 1, 3, 10, -2]  # n: a length or count (small: lists of n items are built)
BY_NAME = {"xs": LISTS, "dst": [[], [1], ["x", None]],
           "rows": [[], [[1, 2], ["a"]], [[], [None]], ["ab", "c"]],
           "data": [{"a": {"b": 1}}, {"a": {}}, {"a": [1]}, {}, {"a": {"b": [None]}}],
           "counter": [{}, {"a": 1}, {1: 5}],
           # equal but not the same object, and the same object: == and `is` part
           "left": [1, 0, "x", None, 2 ** 70, [1]], "right": [True, 0.0, "x", None, 2 ** 70, [1], 1], "item": ["a", 1, 2.5, None, (1, 2), [1]]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def pool(name, hint):
    boxed = hint in (typing.Any, object, list, dict)  # the names' pools are for boxed parameters
    if name == "n":
        return COUNTS + ([True, 2.5, "3"] if boxed else [])
    return BY_NAME[name] if name in BY_NAME and boxed else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 56, 1300))


def test_a_boxed_result_is_the_very_object(suite):
    identity = suite.module.get_function("identity")
    for x in ["héllo" * 3, 2 ** 80, 12345678901, 1.5, [1, "a"], {"k": []}, (1, 2), object()]:
        assert identity(x) is x
    first = suite.module.get_function("first")
    marker = ["inner"]
    assert first([marker, 1]) is marker
    tag_all = suite.module.get_function("tag_all")
    assert tag_all([marker], "t")[0]["value"] is marker


class Money:
    """A user type: boxed operations run its own methods, as CPython would."""

    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + (other.cents if isinstance(other, Money) else other))

    def __radd__(self, other):
        return self.__add__(other)

    def __repr__(self):
        return f"Money({self.cents})"


def test_boxed_operations_are_cpythons_own(suite):
    add = suite.module.get_function("add", fallback=corpus.add)
    assert repr(add(Money(5), 7)) == "Money(12)" and repr(add(3, Money(4))) == "Money(7)"
    total_any = suite.module.get_function("total_any", fallback=corpus.total_any)
    assert repr(total_any([Money(1), Money(2)])) == "Money(3)"
    describe = suite.module.get_function("describe", fallback=corpus.describe)
    assert describe(Money(9)) == "value=Money(9)"
    assert add.fallbacks == 0 and total_any.fallbacks == 0 and describe.fallbacks == 0


def test_cpython_exceptions_cross_as_they_are_without_falling_back(suite):
    add = suite.module.get_function("add", fallback=corpus.add)
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \+: 'int' and 'str'$"):
        add(1, "b")
    deep_get = suite.module.get_function("deep_get", fallback=corpus.deep_get)
    with pytest.raises(KeyError) as e:
        deep_get({"a": {}}, "a", "b")
    assert e.value.args == ("b",)
    arith = suite.module.get_function("arith", fallback=corpus.arith)
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        arith(1, 0)
    assert add.fallbacks == 0 and deep_get.fallbacks == 0 and arith.fallbacks == 0


def test_a_boxed_value_where_a_typed_one_is_needed_goes_back_to_cpython(suite):
    # `-> int` returning a float, range() of a bool: CPython computes these calls with the values as they are.
    with pytest.raises(NativeFallback):
        suite.module.get_function("total")([1, 2.5])
    range_of = suite.module.get_function("range_of", fallback=corpus.range_of)
    assert range_of(True) == [0] and range_of.fallbacks == 1
    assert range_of(3) == [0, 1, 2] and range_of.fallbacks == 1


def test_helpers_change_the_callers_bare_list(suite):
    dst, marker = [0], {"x": 1}
    suite.module.get_function("append_all")(dst, [marker, "é"])
    assert dst == [0, {"x": 1}, "é"] and dst[1] is marker
    counter = {}
    bump = suite.module.get_function("bump")
    bump(counter, "a")
    bump(counter, "a")
    bump(counter, 2.5)
    assert counter == {"a": 2, 2.5: 1}


@pytest.mark.parametrize("source, construct", [
    ("from typing import Any\nclass Bad(Exception):\n    pass\ndef f(x: Any) -> int:\n    try:\n"
     "        return len(x)\n    except Bad:\n        return -1\n", "Except"),
    ("from typing import Any\ndef f(x: Any) -> Any:\n    try:\n        return x[0]\n    except KeyError as e:\n"
     "        pass\n    return e\n", "ExceptAs"),
    ("from typing import Any, Set\ndef f(x: Set[Any]) -> int:\n    return len(x)\n", "KeyType"),
    # A native set has no CPython hash or == for a boxed member (g++ refused such a module).
    ("def f(xs: list) -> int:\n    return len(set(xs))\n", "KeyType"),
    ("def f(xs: list) -> int:\n    return len({x for x in xs})\n", "KeyType"),
    ("from typing import Any\ndef f(a: Any, b: Any) -> int:\n    return len({a, b})\n", "KeyType"),
    ("from typing import Any\ndef f(a: Any) -> int:\n    return len({(1, a)})\n", "KeyType"),
    ("from typing import Any, Set, Tuple\ndef f(x: Set[Tuple[int, Any]]) -> int:\n    return len(x)\n", "KeyType"),
    ("from typing import Any\ndef f(x: Any) -> Any:\n    return x.get(1, default=2)\n", "CallKeywords"),
])
def test_what_stays_unsupported_is_refused_clearly(source, construct):
    why = dict(check_eligible(source))["f"]
    assert why is not None and construct in why, why


def test_without_cpython_a_boxed_function_is_refused_never_run(suite):
    # Runtime callers (C, Go, the loader's own table) have no CPython objects to box.
    import spine_runtime
    handle = spine_runtime.get_global("runtime.ModuleLoader")(suite.module.path)
    get = spine_runtime.get_global("runtime.ModuleGetFunction")
    with pytest.raises(TypeError, match="argument 'x' must be object"):
        get(handle, "identity")(5)
    with pytest.raises(TypeError, match=r"boxed values \(Any, object, bare list/dict\) need a CPython caller"):
        get(handle, "evens")(4)
    assert get(handle, "identity") is not None  # the module stays usable


def test_defaults_of_boxed_parameters_bind_natively(suite):
    f = suite.module.get_function("with_default", fallback=corpus.with_default)
    assert f() == 2 and f("a") == "a" and f(n=5) == 5 and f(None, 7) == 7 and f.fallbacks == 0
