"""Differential tests over corpus_closures (lambdas with defaults, lambdas
made in comprehensions and loops, key lambdas inside comprehensions,
closures returned by factories to native callers and to Python): every
function, compiled natively, gives CPython's value or raises CPython's
exception, defaults evaluated once where the lambda is made. What would
change the meaning is refused, saying why."""
import collections.abc
import inspect
import typing

import pytest

import corpus_closures as corpus
from differential import corpus_tests, factory_cases, sampled_cases
from native import check_eligible, simple_compile

MAX_CASES = 60
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {
    int: [0, 1, -1, 7, -12, 2 ** 31, INT64_MIN],
    bool: [False, True],
    str: ["", "a", "+", "日本"],
    typing.List[int]: [[], [0], [3, -1, 2, 1], [-7, 5, -1, 7, 0], [INT64_MAX, 1]],
    typing.List[str]: [[], ["a"], ["the", "cat"], ["héllo", "日本語", "😀"], ["", "zz"]],
    typing.List[typing.Tuple[int, int]]: [[], [(1, 2)], [(3, 1), (1, 3), (2, 2), (1, 1)], [(0, -5), (-5, 0)]],
}
BY_NAME = {
    "op": ["+", "-", "*", "//", "?", ""],
    "n": [0, 1, 3, -2, 5],
    "k": [0, 3, -2, 2 ** 31],
    "x": [0, 1, -1, 7, -12, 1000, 2 ** 40],
    "factor": [0, 2, -3],
    "offset": [0, 5, -7],
    "lo": [-1, 0, 3],
    "hi": [0, 2, 10],
    "base": [0, 2, -3, 10],
    "by": [0, 2, -3],
    "prefix": ["", ">", "é"],
}


def is_callable(hint):
    return typing.get_origin(hint) is collections.abc.Callable


def takes_a_function(f):
    return any(is_callable(h) for p, h in typing.get_type_hints(f).items() if p != "return")


# The corpus: every function but the Callable helpers (they stay Python when Python calls them); the
# factories return closures Python calls natively too.
OWN = [f for _, f in inspect.getmembers(corpus, inspect.isfunction)
       if f.__module__ == corpus.__name__ and not takes_a_function(f)]
FACTORIES = [f for f in OWN if is_callable(typing.get_type_hints(f)["return"])]
FUNCTIONS = [f for f in OWN if f not in FACTORIES]


def pool(name, hint):
    return BY_NAME[name] if name in BY_NAME and hint in (int, str) else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


def factory_inputs(f):
    return factory_cases(f, pool, 12, 8)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 53, 1000, FACTORIES, factory_inputs))


def test_factories_cross_into_python():
    with open(corpus.__file__) as f:
        why = dict(check_eligible(f.read()))
    assert len(FACTORIES) == 7
    assert all(why[f.__name__] is None for f in FACTORIES)
    assert why["offsets_from_factory"] is None
    assert why["apply_twice"].startswith("parameter 'f' is a Callable")
    assert why["add_with_factory"] is None and why["adders_in_loop"] is None


def test_defaults_are_evaluated_where_the_lambda_is_made(suite):
    # Each lambda keeps the loop variable's value when it was made (CPython's default idiom).
    assert suite.module.get_function("adders_in_loop")(3) == [10, 11, 12]
    assert suite.module.get_function("multipliers")(4) == [0, 3, 6, 9]
    # Rebinding the name after the lambda was made changes nothing.
    assert suite.module.get_function("defaults_made_once")(2) == 203
    assert suite.module.get_function("handler_table")("-", 10, 4) == 6
    # A factory's closure keeps the argument it was made with.
    assert suite.module.get_function("captured_before_rebinding")(2, 5) == 2007
    assert suite.module.get_function("adders_from_factory")(3) == [100, 101, 102]


def test_errors_are_cpythons_where_cpython_raises_them(suite):
    # The default is evaluated where the lambda is made: before any call.
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        suite.module.get_function("default_raises_where_made")(1, 0)
    # The factory's own validation runs where it is called.
    with pytest.raises(ValueError, match="^factor must not be zero$"):
        suite.module.get_function("scaled_all")(0, 1, [])
    with pytest.raises(ValueError, match="^unknown op: -$"):
        suite.module.get_function("apply_op")("-", 1, 2)
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        suite.module.get_function("ops_table")(0, 5)


def test_late_binding_reads_what_cpython_reads_when_called(suite):
    # A nested def reads the local when called: the sum so far, the parameter after rebinding.
    assert suite.module.get_function("running_offsets")([1, 2, 3, 4]) == [1, 3, 6, 10]
    assert suite.module.get_function("rebound_parameter")(3, 4) == 7011
    assert suite.module.get_function("count_repeats")([1, 2, 1, 3, 2, 1]) == 3
    # Handlers stored in a loop all read its variable's last value; the key defaults pinned each column.
    assert suite.module.get_function("length_handlers")(["a", "bb", "ccc", "a"]) == [2, 2, 2]
    assert suite.module.get_function("pinned_keys_and_late_readers")([(1, 2), (3, 1), (2, 2)]) == [2, -1, 10, 10]
    assert suite.module.get_function("best_per_column_pinned")([(1, 2), (3, 1), (2, 2)]) == [(3, 1), (1, 2)]
    # A nested def in a loop is made again each iteration, reading that iteration's step.
    assert suite.module.get_function("bumped_by_step")([1, 2], 10) == [11, 12, 12, 14]
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        suite.module.get_function("ratios")([1, 0], 3)
    # Lifted defs of several statements get the rebound parameter or annotated local as it is at each call.
    assert suite.module.get_function("clipped")([1, 5, 3], 2) == [1, 2, 2]
    assert suite.module.get_function("new_highs")([1, 3, 2, 5, 5, 7]) == 4
    assert suite.module.get_function("doubled_countdown")(3, 2) == 18
    # A factory's nested def reads the parameter the factory rebound before returning it.
    assert suite.module.get_function("offsets_from_factory")(3, 4, [1, -2, 10]) == [-6, 9, 3, 0]
    # Function values with and without defaults in one function: each reads its own, the others late.
    assert suite.module.get_function("pinned_then_late")(3, 5) == [2, 12, 22, 12]
    assert suite.module.get_function("ops_with_defaults")("+", 3, 4) == 7


REFUSED = [
    # a nested def read where a comprehension rebinds its capture: CPython's reads the function's own
    ("def f(x: int) -> int:\n    y = x\n    def g(a: int) -> int:\n        return a + y\n"
     "    return sum([g(1) for y in range(x)])\n",
     "lambda 'g' reads 'y', which is rebound where it is called; it stays Python"),
    # a nested def of several statements capturing a local without an annotation or one scalar type from its
    # assignments: lifted, it needs its type
    ("def f(x: int) -> int:\n    y = divmod(x, 3)\n    def g(a: int) -> int:\n        b = a + y[0]\n        return b\n"
     "    y = (2, 2)\n    return g(1)\n",
     "g() captures 'y', a local of f() without an annotation: its type is not known where g() is compiled "
     "(declare it, `y: T = ...`, to run natively)"),
    # a recursive one stays a lifted function, which needs the type of the local it captures (int, then float)
    ("def f(x: int) -> int:\n    y = x\n    def g(a: int) -> int:\n        return y if a < 1 else g(a - 1)\n"
     "    y = 2.5\n    return g(3)\n",
     "g() captures 'y', a local of f() without an annotation: its type is not known where g() is compiled "
     "(declare it, `y: T = ...`, to run natively)"),
    # a lifted def whose capture a comprehension binds where it is called (its value would be the comprehension's)
    ("def f(x: int) -> int:\n    def g(a: int) -> int:\n        b = a + x\n        return b\n"
     "    return sum([g(1) for x in range(3)])\n",
     "g() captures 'x', which a comprehension, lambda, except clause or del of f() binds too"),
    # or that is deleted: a call could find it unbound
    ("def f(x: int) -> int:\n    y: int = x\n    def g(a: int) -> int:\n        b = a + y\n        return b\n"
     "    r = g(1)\n    del y\n    return r\n",
     "g() captures 'y', which a comprehension, lambda, except clause or del of f() binds too"),
    # a key lambda's default that computes: CPython evaluates it after the iterable
    ("def f(xs: list[int], z: int) -> list[int]:\n    return sorted(xs, key=lambda v, d=1 // z: v * d)\n",
     "a key lambda's default that computes stays Python (CPython evaluates it after the iterable, natively it "
     "would be before)"),
    # a key lambda taking two arguments
    ("def f(xs: list[int], z: int) -> list[int]:\n    return sorted(xs, key=lambda v, w: v * w)\n",
     "a key lambda takes one parameter, the others with defaults"),
    # a lambda calling its own parameter, named like a local that holds function values
    ("def f(n: int) -> int:\n    fs = [lambda: n]\n    t = 0\n    for r in fs:\n        t += r()\n"
     "    g = lambda r: r() + 1\n    return t\n",
     "a lambda calls its parameter 'r', named like a local holding function values; it stays Python"),
    # a lambda capturing the comprehension's variable: each one's cell is that scope's, read late
    ("def f(n: int) -> int:\n    fs = [lambda: i for i in range(n)]\n    return fs[0]()\n",
     "a lambda capturing 'i', which a comprehension or lambda binds where it is made, stays Python as a value "
     "(its cell is that scope's)"),
    # one function value with a default and one without, the default's type unknown before lowering: nothing
    # of its type fills the other's slot (an int parameter or a range() loop's variable would)
    ("def f(xs: list[int]) -> int:\n    fs = [lambda x, i=i: x + i for i in xs]\n    fs.append(lambda x: x)\n"
     "    return fs[0](1)\n",
     "function values with 0 and 1 defaults in one function stay Python (the type of i is not known before "
     "lowering)"),
    # given to map, its default would be evaluated for each item (and never for none)
    ("def f(xs: list[int], z: int) -> int:\n    return sum(map(lambda x, d=1 // z: x + d, xs))\n",
     "a lambda with defaults given to map() stays Python"),
    # keyword-only parameters
    ("def f(n: int) -> int:\n    g = (lambda x, *, k=1: x + k)\n    return g(n)\n",
     "a lambda with *args or keyword-only parameters stays Python"),
    # a default that computes, given to a Callable helper, would run at each call of the copy
    ("from typing import Callable\n"
     "def apply(f: Callable[[int], int], x: int) -> int:\n    return f(x)\n"
     "def g(x: int) -> int:\n    return apply(lambda v, w=x * 2: v + w, x)\n",
     "the lambda passed to apply() has a default that is neither a constant nor a name; it stays Python"),
    # the closure binds its capture's name again in a comprehension of its own
    ("from typing import Callable\n"
     "def f(n: int) -> Callable[[int], int]:\n    return lambda x: sum([n for n in range(x)]) + n\n",
     "the closure f() returns binds its capture 'n' again inside; it stays Python"),
    # a factory capturing a local of its own: no annotation nor scalar assignment says its type
    ("from typing import Callable\n"
     "def f(n: int) -> Callable[[int], int]:\n    m = divmod(n, 2)\n    return lambda x: x + m[0]\n",
     "the closure f() returns captures 'm', which is not an annotated parameter of f() (its type is not known "
     "there)"),
    # returning a module function, or another factory's closure: no lambda to return
    ("from typing import Callable\n"
     "def inc(x: int) -> int:\n    return x + 1\n"
     "def f(n: int) -> Callable[[int], int]:\n    return inc\n",
     "f() returns a function natively only as a lambda or a nested function named where it returns"),
    # closures of different arities from one factory
    ("from typing import Callable\n"
     "def f(n: int) -> Callable[[int], int]:\n    if n:\n        return lambda x: x\n    return lambda x, y: y\n",
     "f() returns functions taking different numbers of arguments; it stays Python"),
]


@pytest.mark.parametrize("source,reason", REFUSED, ids=range(len(REFUSED)))
def test_what_would_change_the_meaning_is_refused(source, reason):
    why = dict(check_eligible(source))
    name = "g" if "def g(x" in source else "f"
    assert why[name] is not None and why[name].endswith(reason), why[name]


def test_a_caller_of_a_refused_factory_says_why():
    why = dict(check_eligible("from typing import Callable\n"
                              "def f(n: int) -> Callable[[int], int]:\n    m = divmod(n, 2)\n"
                              "    return lambda x: x + m[0]\n"
                              "def g(x: int) -> int:\n    return f(x)(1)\n"))
    assert why["f"] == "line 2, column 0: ClosureCapture: the closure f() returns captures 'm', which is not " \
        "an annotated parameter of f() (its type is not known there)"
    assert why["g"] == f"calls f(), which is not eligible ({why['f']})"


def test_a_module_compiles_the_factory_for_python_and_native_callers(tmp_path):
    names = simple_compile("from typing import Callable\n"
                           "def make_adder(n: int) -> Callable[[int], int]:\n"
                           "    def add(x: int) -> int:\n        return x + n\n    return add\n"
                           "def add5(x: int) -> int:\n    return make_adder(5)(x)\n", str(tmp_path / "m.so"))
    assert names == ["make_adder", "add5"]


def test_int64_boundaries_pass_through_defaults_and_captures(suite):
    assert suite.check(corpus.clamp_all, [(INT64_MIN, INT64_MAX, [INT64_MAX, INT64_MIN, 0]), (0, -1, [INT64_MAX]),
                                          (INT64_MAX, INT64_MAX, [INT64_MIN])]) == 0
    # The last one overflows int64: native code says it cannot, and only that one is not compared.
    assert suite.check(corpus.handler_table, [("+", INT64_MAX, 0), ("-", INT64_MIN, -1), ("*", INT64_MIN, 1),
                                              ("+", INT64_MAX, 1)]) == 1
