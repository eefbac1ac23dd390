"""Differential tests: every corpus function, compiled natively (with the
CPython version as fallback), must give the same result with the same
type, or raise the same exception type with the same message, as CPython."""
import copy
import inspect
import itertools
import math
import os

import pytest

import corpus
from native import NativeFallback, module_loader, simple_compile

INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 100, -100, 2 ** 31, 2 ** 53 + 1, -(2 ** 53) - 1,
        2 ** 62, -(2 ** 62), 2 ** 63 - 1, -(2 ** 63), 2 ** 63, -(2 ** 63) - 1]
SMALL_INTS = [0, 1, 2, 3, 5, 8, 13, 17, -1, -2, -5, 40]
FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-300, 1e308, -1e308, 2.0 ** 53, 2.0 ** 63,
          -(2.0 ** 63), math.inf, -math.inf, math.nan]
BOOLS = [False, True]
MAX_CASES = 400

FUNCTIONS = [f for name, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == "corpus"]


def compile_corpus(corpus_module, functions, factory):
    """Compile a whole corpus file into one module; every one of @p functions must be callable from Python."""
    path = str(factory.mktemp("native") / (corpus_module.__name__ + ".so"))
    with open(corpus_module.__file__) as f:
        names = simple_compile(f.read(), path)
    assert sorted(names) == sorted(f.__name__ for f in functions)
    return module_loader(path)


@pytest.fixture(scope="module")
def native_module(tmp_path_factory):
    return compile_corpus(corpus, FUNCTIONS, tmp_path_factory)


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


def outcome(f, args):
    try:
        v = f(*args)
    except RecursionError:
        return ("raise", "RecursionError", "")
    except Exception as e:  # noqa: BLE001 - the type is what we compare
        return ("raise", type(e).__name__, str(e))
    # repr tells 0.0 from -0.0 and True from 1; NaN compares by repr too.
    return ("value", type(v).__name__, repr(v))


def test_corpus_size():
    assert len(FUNCTIONS) >= 80


def assert_same_meaning(native_module, f, cases):
    """Natively (CPython as fallback) and under CPython: the same outcome, and the arguments left as they were."""
    fast = native_module.get_function(f.__name__, fallback=f)
    for args in cases:
        mine, theirs = copy.deepcopy(args), copy.deepcopy(args)
        assert outcome(fast, mine) == outcome(f, theirs), (f.__name__, args)
        assert repr(mine) == repr(theirs) == repr(args), (f.__name__, args)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_same_meaning(native_module, f):
    assert_same_meaning(native_module, f, inputs_for(f))


def test_native_paths_really_run(native_module):
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
