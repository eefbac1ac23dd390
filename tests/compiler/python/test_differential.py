"""Differential tests: every corpus function, compiled natively, must give
the same result with the same type, or raise the same exception type with
the same message, as CPython (differential.py: the native answer itself,
no Python fallback)."""
import inspect
import itertools
import math
import os

import pytest

import corpus
from differential import DECLINED, corpus_tests, outcome
from native import NativeFallback, module_loader, simple_compile

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)
INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 100, -100, 2 ** 31, 2 ** 53 + 1, -(2 ** 53) - 1,
        2 ** 62, -(2 ** 62), INT64_MAX, INT64_MIN]
# Not int64: native code must decline these (test_unrepresentable_arguments_are_declined).
BEYOND_INT64 = [INT64_MAX + 1, INT64_MIN - 1, 2 ** 100]
SMALL_INTS = [0, 1, 2, 3, 5, 8, 13, 17, -1, -2, -5, 40]
FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-300, 1e308, -1e308, 2.0 ** 53, 2.0 ** 63,
          -(2.0 ** 63), math.inf, -math.inf, math.nan]
BOOLS = [False, True]
MAX_CASES = 400

FUNCTIONS = [f for name, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == "corpus"]


def inputs_for(f):
    small = f.__name__.startswith("loop_")
    pools = []
    for p in inspect.signature(f).parameters.values():
        if p.annotation is int:
            pools.append(SMALL_INTS if small else INTS)
        elif p.annotation is float:
            pools.append(FLOATS)
        else:
            pools.append(BOOLS)
    cases = list(itertools.product(*pools))
    step = max(1, len(cases) // MAX_CASES)
    return cases[::step]


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 80, 10000))


def test_unrepresentable_arguments_are_declined(suite):
    # An int beyond int64 cannot enter native code: the call is declined, and
    # with the Python version as fallback the caller gets CPython's answer.
    checked = 0
    for f in FUNCTIONS:
        params = list(inspect.signature(f).parameters.values())
        for i, p in enumerate(params):
            if p.annotation is not int:
                continue
            for big in BEYOND_INT64:
                args = tuple(big if j == i else (1 if q.annotation is int else 1.0 if q.annotation is float else True)
                             for j, q in enumerate(params))
                assert outcome(suite.module.get_function(f.__name__), args) is DECLINED, (f.__name__, args)
                if not f.__name__.startswith("loop_"):  # (CPython would loop that many times)
                    with_fallback = suite.module.get_function(f.__name__, fallback=f)
                    assert outcome(with_fallback, args) == outcome(f, args)
                checked += 1
    assert checked > 100


def test_native_paths_really_run(suite):
    native_module = suite.module
    # Without a fallback, overflow is reported instead of silently recomputed,
    # which proves the results above came from native code where they could.
    raw = native_module.get_function("add")
    assert raw(2, 3) == 5
    with pytest.raises(NativeFallback):
        raw(2 ** 63 - 1, 1)
    with pytest.raises(NativeFallback):
        raw(1.0, 2)  # a float for an int parameter: CPython would keep it a float
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        native_module.get_function("floordiv")(1, 0)
    with pytest.raises(ZeroDivisionError, match="float modulo"):
        native_module.get_function("fmod")(1.0, 0.0)
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        native_module.get_function("loop_dyn_step")(3, 0)
    assert native_module.get_function("loop_fibr")(25) == 75025
    assert native_module.get_function("deep")(500) == 500
    with pytest.raises(NativeFallback):
        native_module.get_function("deep")(100000)  # past the native depth limit


def test_function_keeps_module_loaded(tmp_path):
    path = str(tmp_path / "m.so")
    simple_compile("def f(x: int) -> int:\n    return x * 3\n", path)
    fn = module_loader(path).get_function("f")  # the Module object is dropped at once
    os.unlink(path)
    assert fn(14) == 42


def test_compile_function_object(tmp_path):
    path = str(tmp_path / "sum.so")
    assert simple_compile(corpus.loop_sum, path) == ["loop_sum"]
    m = module_loader(path)
    assert m.function_names() == ["loop_sum"]
    assert m.get_function("loop_sum")(10) == 45
