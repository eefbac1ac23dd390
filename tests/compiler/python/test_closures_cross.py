"""Differential tests over corpus_closures_cross: closure factories Python
calls natively. Each factory's native version, called without a Python
version to fall back on, and each closure it returns, answer as CPython's:
the same values, the same exceptions and messages, the same `__name__`,
`__qualname__`, `__module__` and `__doc__`. Keywords bind by the closure's
parameters; with the Python version as fallback, the calls native code
cannot make raise CPython's own errors. What cannot cross stays Python for
Python's callers, saying why."""
import typing

import pytest

import corpus_closures_cross as corpus
from differential import corpus_tests, factory_cases, sampled_cases
from native import CompileError, NativeFallback, check_eligible, module_loader, simple_compile

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)
BY_TYPE = {
    int: [0, 1, -1, 2, 7, -12, 1000, -99999, 2 ** 31, INT64_MAX],
    float: [0.0, -0.0, 1.5, -2.25, 1e300, float("inf")],
    str: ["", "a", "+", "//", "héllo", "日本語", "😀"],
    bool: [False, True],
    typing.Optional[int]: [None, 0, 3, -2, -(2 ** 40)],
    typing.Tuple[int, int]: [(0, 0), (-3, 3), (5, 1), (INT64_MIN, INT64_MAX)],
    typing.Tuple[int, int, int]: [(0, 1, 2), (-1, 5, INT64_MAX)],
    typing.List[int]: [[], [0], [3, -1, 2, 1], [INT64_MAX, INT64_MIN, 0], [5, 5, 9, -9, 12]],
    typing.List[str]: [[], ["a"], ["héllo", "", "日本", "😀x"]],
    typing.List[float]: [[], [0.0, -0.0], [1.5, -2.25, 1e300], [float("inf"), 3.0]],
    typing.List[typing.Tuple[int, int, int]]: [[], [(1, 2, 3)], [(3, 1, 2), (1, 3, 2), (2, 2, 1)]],
}
BY_NAME = {
    "col": [0, 1, 2, 3, -1, -4],
    "step": [1, 2, 0, -1, 3],
    "width": [0, 3, 8, -2],
    "op": ["+", "-", "*", "//", "%", ""],
    "n": [0, 3, -5, 100, -(2 ** 40), INT64_MAX - 4],
    "by": [0, 4, -1],
    "a": [0, 2, -3],
    "b": [1, -7, INT64_MIN],
    "sep": ["", "-", "é"],
    "size": [0, 3, -1, 100],
    "center": [0.0, -1.5, 2.0],
    "make_countdown:0": [0, 1, 10, -5, 100],  # (a countdown from INT64_MAX would not end)
}

ALL = [f for name, f in vars(corpus).items() if callable(f) and getattr(f, "__module__", None) == corpus.__name__]
FACTORIES = [f for f in ALL if f.__name__.startswith("make_")]
FUNCTIONS = [f for f in ALL if not f.__name__.startswith("make_")]


def pool(name, hint):
    return BY_NAME[name] if name in BY_NAME else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, 40)


def factory_inputs(f):
    return factory_cases(f, pool, 12, 12)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 16, 900, FACTORIES, factory_inputs))


@pytest.fixture(scope="module")
def with_fallback(suite):
    """The factories loaded as the guest loads them: their Python versions as fallback."""
    return {f.__name__: suite.module.get_function(f.__name__, fallback=f) for f in FACTORIES}


def test_the_closure_has_the_names_cpython_gives_it(suite):
    for f in FACTORIES:
        args = (1, 2) if f is corpus.make_clamp else factory_inputs(f)[1][0]
        native, python = suite.module.get_function(f.__name__, signature=f)(*args), f(*args)
        assert (native.__name__, native.__qualname__, native.__module__, native.__doc__) == \
            (python.__name__, python.__qualname__, python.__module__, python.__doc__), f.__name__
    greet = suite.module.get_function("make_greeter", signature=corpus.make_greeter)("Hi")
    assert (greet.__qualname__, greet.__doc__) == ("make_greeter.<locals>.greet", "Greet someone by name.")
    assert suite.module.get_function("make_linear", signature=corpus.make_linear)(2, 3).__qualname__ == \
        "make_linear.<locals>.<lambda>"


def test_keywords_bind_by_the_closures_parameters_natively(suite):
    add = suite.module.get_function("make_adder", signature=corpus.make_adder)(5)
    assert add(x=3) == 8 and add.fallbacks == 0
    op = suite.module.get_function("make_operator", signature=corpus.make_operator)("-")
    assert op(b=1, a=10) == 9 and op(10, b=4) == 6 and op.fallbacks == 0


def test_each_closure_is_its_own_code_object(suite, with_fallback):
    make = suite.module.get_function("make_step", signature=corpus.make_step)
    up, down = make(True, 2), make(False, 2)
    assert (up(up_by=5), down(down_by=5), up.fallbacks, down.fallbacks) == (7, 3, 0, 0)
    with pytest.raises(TypeError, match=r"^make_step\.<locals>\.<lambda>\(\) got an unexpected keyword argument "
                       "'up_by'$"):
        with_fallback["make_step"](False, 2)(up_by=5)


@pytest.mark.parametrize("factory, args, call, message", [
    ("make_adder", (5,), lambda f: f(), "make_adder.<locals>.add() missing 1 required positional argument: 'x'"),
    ("make_adder", (5,), lambda f: f(1, 2), "make_adder.<locals>.add() takes 1 positional argument but 2 were "
                                            "given"),
    ("make_adder", (5,), lambda f: f(y=1), "make_adder.<locals>.add() got an unexpected keyword argument 'y'"),
    ("make_adder", (5,), lambda f: f("a"), 'can only concatenate str (not "int") to str'),
    ("make_operator", ("+",), lambda f: f(1), "make_operator.<locals>.<lambda>() missing 1 required positional "
                                              "argument: 'b'"),
    ("make_operator", ("*",), lambda f: f(**1), "corpus_closures_cross.make_operator.<locals>.<lambda>() argument "
                                                "after ** must be a mapping, not int"),
    ("make_greeter", ("Hi",), lambda f: f(1, 2, 3), "make_greeter.<locals>.greet() takes 1 positional argument "
                                                    "but 3 were given"),
])
def test_call_errors_are_cpythons(with_fallback, factory, args, call, message):
    for f in (with_fallback[factory](*args), getattr(corpus, factory)(*args)):
        with pytest.raises(TypeError) as info:
            call(f)
        assert str(info.value) == message


def test_calls_native_code_cannot_make_run_cpythons_closure(with_fallback):
    add = with_fallback["make_adder"](INT64_MAX)
    assert add(1) == INT64_MAX + 1 and add.fallbacks == 1  # beyond int64: CPython's closure answers
    assert add(-1) == INT64_MAX - 1 and add.fallbacks == 1
    # A factory argument beyond int64: the factory itself runs as Python, its closure is CPython's.
    big = with_fallback["make_adder"](2 ** 70)
    assert type(big).__name__ == "function" and big(1) == 2 ** 70 + 1


def test_without_a_python_version_such_calls_are_declined(suite):
    add = suite.module.get_function("make_adder", signature=corpus.make_adder)(INT64_MAX)
    with pytest.raises(NativeFallback):
        add(1)


def test_late_binding_reads_what_the_factory_left(suite):
    shift = suite.module.get_function("make_shifter", signature=corpus.make_shifter)(3, 4)
    assert shift(10) == 3 and shift.fallbacks == 0
    countdown = suite.module.get_function("make_countdown", signature=corpus.make_countdown)(3)
    assert countdown(10) == [10, 7, 4, 1]


def test_validation_raises_where_cpythons_does(suite):
    clamp = suite.module.get_function("make_clamp", signature=corpus.make_clamp)
    with pytest.raises(ValueError, match="^empty range: 3 > 1$"):
        clamp(3, 1)
    op = suite.module.get_function("make_operator", signature=corpus.make_operator)
    with pytest.raises(ValueError, match="^unknown operator: '%'$"):
        op("%")
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        op("//")(1, 0)


def test_each_call_makes_a_new_closure(suite):
    make = suite.module.get_function("make_adder", signature=corpus.make_adder)
    a, b = make(1), make(2)
    assert a is not b and (a(0), b(0)) == (1, 2)


STAYS_PYTHON = " returns a closure that stays Python for Python callers: "
REFUSED = [
    # a captured list: CPython's closure holds the caller's list itself, and sees what the caller appends later
    ("from typing import Callable, List\n"
     "def f(words: List[str]) -> Callable[[str], bool]:\n    return lambda w: w in words\n",
     "f()" + STAYS_PYTHON + "its closure captures 'words', a List[str]: CPython's closure holds the caller's own "
     "object, which the caller may change afterwards; a native one would hold a copy (and it does not compile "
     "natively: line 3, column 4: ReturnBorrowed: returning (part of) a mutable argument: the caller would get a "
     "copy instead of the object itself)"),
    # the annotation does not say the closure's parameter types
    ("from typing import Callable\n"
     "def f(n: int) -> Callable[..., int]:\n    return lambda x: x + n\n",
     "f()" + STAYS_PYTHON + "its annotation Callable[..., int] does not "
     "spell the closure's parameter types (Callable[[T, ...], R] does); native callers run it natively and get "
     "the closure's captures by value"),
    # the closure calls a sibling nested def: CPython's reads it from a cell the state does not hold
    ("from typing import Callable\n"
     "def f(n: int) -> Callable[[int], int]:\n    def twice(v: int) -> int:\n        return 2 * v\n"
     "    def g(x: int) -> int:\n        return twice(x) + n\n    return g\n",
     "f()" + STAYS_PYTHON + "its closure g reads 'twice', a name of f() "
     "that is no captured parameter; native callers run it natively and get the closure's captures by value"),
    # a closure taking another number of arguments than its annotation says
    ("from typing import Callable\n"
     "def f(n: int) -> Callable[[int, int], int]:\n    return lambda x: x + n\n",
     "f()" + STAYS_PYTHON + "its closure takes 1 argument(s) where its "
     "annotation says 2; native callers run it natively and get the closure's captures by value"),
]


@pytest.mark.parametrize("source, reason", REFUSED, ids=range(len(REFUSED)))
def test_what_cannot_cross_is_refused_saying_why(source, reason, tmp_path):
    assert dict(check_eligible(source))["f"] == reason
    if "does not compile natively" in reason:
        with pytest.raises(CompileError, match="ReturnBorrowed"):
            simple_compile(source, str(tmp_path / "m.so"))
        return
    # Compiled for native callers still, with no entry Python could load.
    names = simple_compile(source + "def g(x: int) -> int:\n    return f(1)(x)\n", str(tmp_path / "m.so"))
    assert names == ["g"]
    with pytest.raises(KeyError):
        module_loader(str(tmp_path / "m.so")).get_function("f")
