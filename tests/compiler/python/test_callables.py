"""Differential tests over corpus_callables (lambdas, nested and module
functions used as values: dispatch tables, Callable helpers, key functions
passed around, closures built in loops): every function, compiled natively,
gives CPython's value or raises CPython's exception, late binding included.
And what cannot keep CPython's meaning is refused, saying why."""
import ast
import inspect
import typing

import pytest

import corpus_callables as corpus
from differential import corpus_tests, sampled_cases
from native import check_eligible, simple_compile
from native.callables import callable_parameters, callable_spellings

MAX_CASES = 60
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

INTS = [0, 1, -1, 2, 7, -12, 1000, INT64_MAX, INT64_MIN]
INT_LISTS = [[], [0], [5], [3, -1, 2, 1], [-7, 5, -1, 7, 0], [INT64_MAX, 1], [12, 9, 11, 30, 4, 4]]
STR_LISTS = [[], ["a"], ["the", "cat", "sat", "on", "a", "mat"], ["héllo", "hé", "日本語", "😀"], ["", "zz", "y"]]
BY_TYPE = {int: INTS, bool: [False, True], str: ["", "a", "+", "日本"], typing.List[int]: INT_LISTS,
           typing.List[str]: STR_LISTS}
BY_NAME = {
    "op": ["+", "-", "*", "//", "%", "max", "min", "hyp", "neg", "sq", "abs", "x", "?", ""],
    "program": [[], ["inc"], ["inc", "dbl", "neg", "dec"], ["dbl"] * 5, ["inc", "halve"]],
    "i": [0, 1, 2, 3, -1, -3, -4],
    "n": [0, 1, 3, -2, 5],
    "k": [0, 3, -2, 2 ** 40],
    "x": [0, 1, -1, 2, 7, -12, 1000, 2 ** 31, INT64_MIN],
    "step": [0, 1, -5],
    "limit": [0, 2, -1],
    "lo": [-1, 0, 3],
    "hi": [0, 2, 10],
    "offset": [0, 1, -7],
    "start": [0, 5, -3],
}
SPELLINGS = callable_spellings(ast.parse(inspect.getsource(corpus)))
# The corpus: every function but the helpers taking a Callable (those stay Python when Python calls them).
FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction)
             if f.__module__ == corpus.__name__ and
             not callable_parameters(ast.parse(inspect.getsource(f)).body[0], SPELLINGS)]


def pool(name, hint):
    return BY_NAME[name] if name in BY_NAME and hint is not typing.List[int] else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 36, 900))


def test_functions_taking_a_callable_stay_python_saying_why():
    with open(corpus.__file__) as f:
        why = dict(check_eligible(f.read()))
    assert why["apply_all"] == ("parameter 'f' is a Callable: called from Python it stays Python "
                                "(native callers run a copy specialised to what they pass)")
    assert why["top_by"].startswith("parameter 'key' is a Callable")
    assert why["squares"] is None and why["shortest_words"] is None


def test_late_binding_is_cpythons(suite):
    # Each closure reads the loop variable when it runs: its last value, for every one of them.
    assert suite.module.get_function("closures_in_loop")(3) == [12, 12, 12]
    assert suite.module.get_function("rebound_after")(2) == 201
    assert suite.module.get_function("counter_sees_updates")([1, 2, 3]) == [1, 3, 6]


def test_an_error_inside_a_lambda_is_cpythons(suite):
    calc = suite.module.get_function("calc")
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        calc("//", 1, 0)
    with pytest.raises(KeyError, match="^'\\?'$"):
        calc("?", 1, 2)
    with pytest.raises(IndexError, match="^list index out of range$"):
        suite.module.get_function("by_index")(3, 1)


REFUSED = [
    # returned: a function value leaving the function has no native form
    ("def f(k: int) -> int:\n    g = [lambda x: x + k]\n    return len(g) + h(g)\n"
     "def h(g: list[int]) -> int:\n    return 0\n",
     "'g' holds function values: natively they may be called, stored in locals, lists, tuples and dicts, "
     "looked up and counted; used otherwise (returned, compared, printed) the function stays Python"),
    # *args: a call's arity is not the lambda's
    ("def f(n: int) -> int:\n    fs = []\n    for i in range(n):\n        fs.append(lambda *x: i)\n"
     "    return fs[0](1)\n",
     "a lambda with *args or keyword-only parameters stays Python"),
    # the comprehension's own variable is another cell than the function's
    ("def f(n: int) -> int:\n    i = 5\n    fs = [lambda: i]\n    return sum(fs[0]() for i in range(n))\n",
     "a function value reads 'i', which is rebound where it is called; it stays Python"),
    # the capture passed to a specialised copy needs a type
    ("from typing import Callable\n"
     "def apply(f: Callable[[int], int], x: int) -> int:\n    return f(x)\n"
     "def g(x: int) -> int:\n    k = x * 2\n    return apply(lambda v: v + k, x)\n",
     "the function passed to apply() captures 'k', which has no annotation in g(); annotate it to run natively"),
    # chosen at run time and passed on: no single copy to call
    ("from typing import Callable\n"
     "def apply(f: Callable[[int], int], x: int) -> int:\n    return f(x)\n"
     "def g(x: int, up: bool) -> int:\n    h = (lambda v: v + 1) if up else (lambda v: v - 1)\n"
     "    return apply(h, x)\n",
     "a Callable argument natively is a lambda, a nested or module function or a builtin named where it is "
     "passed (a function chosen at run time stays Python)"),
    # made before its capture is assigned: a call could find it unbound (NameError), which a tag cannot tell
    ("def f(n: int) -> int:\n    fs = [lambda: y]\n    y = n\n    return fs[0]()\n",
     "a lambda capturing 'y' made where 'y' may not be assigned yet stays Python as a value"),
    # a capture holding function values cannot be passed to a copy
    ("from typing import Callable, List\n"
     "def apply(f: Callable[[int], int], x: int) -> int:\n    return f(x)\n"
     "def g(x: int) -> int:\n    fs: List[Callable[[int], int]] = [abs]\n    return apply(lambda v: fs[0](v), x)\n",
     "the function passed to apply() captures 'fs', which holds function values; it stays Python"),
    # arities differ: one dispatch cannot hold both
    ("def f(x: int) -> int:\n    fs = [lambda a: a, lambda a, b: a + b]\n    return fs[0](x)\n",
     "function values taking 2 and 1 arguments in one function stay Python"),
]


@pytest.mark.parametrize("source,reason", REFUSED, ids=range(len(REFUSED)))
def test_what_would_change_the_meaning_is_refused(source, reason):
    why = dict(check_eligible(source))
    name = "g" if "def g(x" in source else "f"
    assert why[name] is not None and why[name].endswith(reason), why[name]


def test_a_lambda_made_in_a_comprehension_capturing_its_variable_stays_python():
    # Each one's cell is the comprehension's variable, not the function's (with a default it
    # runs natively: corpus_closures).
    why = dict(check_eligible("def f(n: int) -> int:\n    fs = [lambda: i for i in range(n)]\n"
                              "    return fs[0]()\n"))
    assert why["f"] is not None and why["f"].endswith(
        "a lambda capturing 'i', which a comprehension or lambda binds where it is made, stays Python as a "
        "value (its cell is that scope's)")


def test_a_module_with_only_callable_takers_compiles_nothing_of_them(tmp_path):
    names = simple_compile("from typing import Callable\n"
                           "def apply(f: Callable[[int], int], x: int) -> int:\n    return f(x)\n"
                           "def inc(x: int) -> int:\n    return apply(lambda v: v + 1, x)\n", str(tmp_path / "m.so"))
    assert names == ["inc"]
