"""Differential tests over corpus_print: what native functions print, compared
with what CPython's print writes to sys.stdout (differential.printed_outcome:
the value or exception and the text, for every case). Functions that raise
natively or overflow int64 after printing are checked with their Python
version as the fallback: CPython runs them from the start, and the lines they
printed before the fault must appear once, not twice; the others run with no
fallback at all, so their output is the native code's own."""
import io
import sys
import typing

import pytest

import corpus_print as corpus
from differential import Suite, corpus_tests, inputs_by, printed_outcome, python_callable
from native import NativeFallback, check_eligible, module_loader, simple_compile

INT64_MAX = 2 ** 63 - 1
FLOATS = [0.0, -0.0, 1.0, 2.5, 1e16, 1.5e-7, 123456789.125, -3.75, float("inf"), float("nan"), 0.1]
BY_TYPE = {int: [0, 1, 2, 5, -3, 12, 1000], str: ["", "a", "word", "é日本", "😀 x", "tab\there"],
           bool: [False, True], float: FLOATS,
           typing.List[int]: [[], [3], [5, -2, 7, 7, -9], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
           typing.List[str]: [[], ["a"], ["to", "be", "or", "not", "to", "be"], ["é", "日本", "😀"]],
           typing.List[float]: [[], [1.5], [0.1, 0.2, 0.3], [1e300, -2.5, float("nan")]],
           typing.List[typing.List[int]]: [[], [[]], [[1, 2], [3]], [[1, -1], [2, 2, 2], [9]]],
           typing.Dict[str, int]: [{}, {"a": 1}, {"zeta": 26, "alpha": 1, "é": -5}],
           typing.Optional[int]: [None, 0, 7, -1]}
BY_NAME = {"width": [0, 3, 6], "sep": ["", ", ", "|", "\n", "→"], "target": [7, -9, 4, 100],
           "key": ["a", "zeta", "missing", ""], "i": [0, 2, -1, 4, 9], "k": [0, 5, -10],
           "x": [0, 1, 2, 5, -3, 12, 1000, 3_000_000, -2_500_000, INT64_MAX],
           "n": [0, 1, 2, 5, 7, 12, -4, 27]}

FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)
# Native faults after printing (a raise CPython's version raises again, an int64 overflow):
# checked with the Python version as the fallback.
FALLS_BACK = {"print_then_raise", "print_then_index_error", "print_then_overflow", "running_factorial",
              "print_then_key_error"}

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 40, 600, observe=printed_outcome,
                              falls_back=FALLS_BACK))


@pytest.mark.parametrize("name", sorted(FALLS_BACK))
def test_a_fault_after_printing_prints_once(suite, name):
    # Some cases ran natively, the others fell back to CPython, and each printed exactly what
    # CPython prints (suite.check compared the text): the native lines were dropped.
    f = getattr(corpus, name)
    suite.check(f)
    fell_back, total = suite.fell_back[name]
    assert 0 < fell_back < total, (name, fell_back, total)


def test_the_overflow_case_prints_its_first_line_once(suite):
    fast = suite.module.get_function("print_then_overflow", fallback=corpus.print_then_overflow)
    assert printed_outcome(fast, (3_000_000,)) == ("value", "int", "27000000000000000000",
                                                   "cubing 3000000\ncube is 27000000000000000000\n")
    assert fast.fallbacks == 1


def test_without_a_python_version_a_fault_prints_nothing(suite):
    fast = suite.module.get_function("print_then_raise")
    assert printed_outcome(fast, (-1,)) == ("raise", "ValueError", "negative value: -1", "")
    assert printed_outcome(fast, (2,)) == ("value", "int", "2", "validating 2\nok\n")


def test_output_is_written_when_the_call_returns(suite, monkeypatch):
    # One write of the whole output, to the sys.stdout of the moment the call returns.
    writes = []

    class Recorder:
        def write(self, text):
            writes.append(text)
            return len(text)
    monkeypatch.setattr(sys, "stdout", Recorder())
    fast = suite.module.get_function("countdown")
    assert fast(3) is None
    assert writes == ["3 2 1 liftoff!\n"]


def test_stdout_none_drops_the_output_as_print_does(suite, monkeypatch):
    monkeypatch.setattr(sys, "stdout", None)
    assert suite.module.get_function("progress")(3) == 3


def test_a_closed_stdout_raises_cpythons_error(suite, monkeypatch):
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stdout", closed)
    with pytest.raises(ValueError, match="^I/O operation on closed file$"):
        corpus.hello("x")
    fast = suite.module.get_function("hello", fallback=corpus.hello)
    with pytest.raises(ValueError, match="^I/O operation on closed file$"):
        fast("x")
    assert fast.fallbacks == 0  # raised as it is: the function ran, it must not run again


def test_a_lost_stdout_raises_cpythons_error(suite, monkeypatch):
    monkeypatch.delattr(sys, "stdout")
    with pytest.raises(RuntimeError, match="^lost sys.stdout$"):
        corpus.hello("x")
    with pytest.raises(RuntimeError, match="^lost sys.stdout$"):
        suite.module.get_function("hello")("x")


def test_output_beyond_the_bound_goes_back_to_cpython(tmp_path):
    source = "def spam(n: int, line: str) -> int:\n    for i in range(n):\n        print(line)\n    return n\n"
    simple_compile(source, str(tmp_path / "spam.so"))
    fast = module_loader(str(tmp_path / "spam.so")).get_function("spam")
    line = "x" * 1023
    assert printed_outcome(fast, (1024, line)) == ("value", "int", "1024", (line + "\n") * 1024)  # 1 MiB
    with pytest.raises(NativeFallback, match="printed output beyond the native bound"):
        fast(1025, line)
    with pytest.raises(NativeFallback, match="printed output beyond the native bound"):
        fast(1, "y" * (1 << 20))


@pytest.mark.parametrize("source, reason", [
    ("import sys\ndef f(x: int) -> None:\n    print(x, file=sys.stderr)\n", "print() with file="),
    ("def f(x: int) -> None:\n    print(x, flush=True)\n", "print() with flush="),
    ("def f(xs: list[int]) -> None:\n    print(*xs)\n", "CallStar"),
    ("def f(x: int) -> None:\n    print(x, sep=1)\n", "print() with sep= of a int"),
    ("def f(x: int) -> int:\n    y = print(x)\n    return 1\n", "print() used as a value"),
    ("from typing import Any\ndef f(x: Any) -> None:\n    print(x)\n", "print() where boxed values run Python code"),
    ("class C:\n    def __init__(self, x: int) -> None:\n        self.x = x\n"
     "def f(x: int) -> None:\n    print(C(x))\n", "whose class has no __repr__"),
    ("class C:\n    def __init__(self, x: int) -> None:\n        self.x = x\n"
     "def f(x: int) -> None:\n    print([C(x)])\n", "print() of a list[C]"),
])
def test_what_stays_python_is_refused_clearly(source, reason):
    why = dict(check_eligible(source))["f"]
    assert why is not None and reason in why, why


def test_a_printing_function_is_refused_beside_boxed_ones():
    # f's len(x) could run Python code that prints at once, while what g printed waits.
    source = ("from typing import Any\ndef g(x: int) -> None:\n    print(x)\n"
              "def f(x: Any) -> int:\n    g(1)\n    return len(x)\n")
    reasons = dict(check_eligible(source))
    assert "print() where boxed values run Python code" in reasons["g"], reasons
    assert reasons["f"] == "calls g(), which is not eligible"


def test_a_program_function_named_print_is_called_as_itself(tmp_path):
    source = ("def print(x: int) -> int:\n    return x * 2\n"
              "def f(x: int) -> int:\n    return print(x) + 1\n")
    assert dict(check_eligible(source))["f"] is None


@pytest.mark.parametrize("boxed_member", [
    "    items: list[Any]\n    def __init__(self) -> None:\n        self.items = []\n",
    "    def __init__(self) -> None:\n        self.n = 0\n    def get(self, k: Any) -> int:\n        return 1\n",
    "    def __init__(self) -> None:\n        self.n = 0\n    def size(self) -> int:\n        x: Any = 3\n"
    "        return self.n\n",
])
def test_a_class_with_boxed_values_keeps_print_in_cpython(boxed_member):
    source = f"from typing import Any\nclass Bag:\n{boxed_member}def f(x: int) -> None:\n    print(x)\n"
    assert "print() where boxed values run Python code" in dict(check_eligible(source))["f"]
