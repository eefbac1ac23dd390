"""Differential tests over corpus_numeric_builtins: round(), pow(), bin(),
oct(), hex() and int(text, base) computed natively (differential.py: the
native answer itself, no Python fallback) give CPython's value and type, or
its exception type and message, on ties, signed zeros, inf and nan, int64
bounds, huge and negative ndigits, and malformed digit strings."""
import inspect
import itertools
import math
import typing

import pytest

import corpus_numeric_builtins as corpus
from differential import corpus_tests, python_callable
from native import check_eligible, module_loader, simple_compile

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

FLOATS = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 2.675, 1.005, 0.125, 0.285, -0.4, 0.1, 37.5, 273.354,
          1234.5, -1234.5, 1250.0001, 99.995, 1e16, 4503599627370497.5, 9.2e18, -9.2e18, 1e300, 5e-324,
          math.inf, -math.inf, math.nan]
INTS = [0, 1, -1, 5, -5, 15, 25, 35, -25, 150, 250, -250, 1234, 10 ** 18, -(10 ** 18), INT64_MAX, INT64_MIN]
PLACES = [0, 1, 2, 3, -1, -2, -3, 5, 15, 22, 30, 323, 324, -19, -20, -308, -309]
TEXTS = ["0", "101", "12", "-0x_ff", " +7 ", "0b101", "0o17", "0O17", "ff", "FF", "z", "1_000", "1__0", "_1", "1_",
         "", "  ", "0x", "0x_", "08", "0_0", "00", "0_8", "9223372036854775807", "-9223372036854775808",
         "9223372036854775808", "7fffffffffffffff", "-8000000000000000", "\t1010\n", "1 0", "- 1", "é1", "a'b"]
BY_TYPE = {float: FLOATS, int: INTS, bool: [False, True], str: TEXTS,
           typing.List[float]: [[], [1.0], [0.5, 0.25, 0.125], [2.675, 2.675], [1e300, -1e300]],
           typing.List[int]: [[], [0, 1, 0], [1, 1, 1, 0], [0, 0, 1, 1, 0, 1], [2, 0]]}
BY_NAME = {
    "ndigits": PLACES, "places": PLACES, "digit_amount": [0, 1, 2, 3, -1, 10],
    "nfactor": [1, 2, 0, -3], "moles": [3.1, 0.0, -2.5, 7.25], "volume": [0.31, 0.0, 2.0, 1e-3],
    "n": [0, 1, 2, 10, 50, 70, -1, 4, 9, 15, 16, 17, 24, 25, 26, 10 ** 12],
    "base": [0, 1, 2, 3, -3, 7, 10, 1000000007, INT64_MAX, INT64_MIN],
    "power": [0, 1, 2, 5, -1, -2, 65537, INT64_MAX],
    "mod": [0, 1, -1, 2, 7, -7, 10, 97, 1000000007, INT64_MAX, INT64_MIN],
    "a": [0, 1, 3, -3, 10, 25, 42, INT64_MAX, INT64_MIN], "m": [0, 1, -1, 7, 10, 97, -97, 1000000007, INT64_MIN],
    "message": [0, 42, 65, 3232], "e": [17, 7], "d": [2753, 1783], "exponent": [0, 1, 2, 3, 5, -1],
    "x": [0.0, -0.0, 2.0, -2.0, 0.5, 10.0, math.inf, math.nan], "y": [0.0, 2.0, -1.0, 0.5, 3.0, -0.5],
    "first_term": [1.0, -2.5, 0.0], "common_ratio": [2.0, 0.5, -1.5, 0.0], "nth_term": [1, 2, 5, 0, -1],
    "column_title": ["A", "AB", "ZZ", "FXSHRXW", "ab", ""], "number": INTS + [1 << 40, -(1 << 40) + 1],
    "shift_amount": [0, 1, 5, -1], "text": TEXTS,
    "bits": ["0", "1", "101", "11111111", "2", "", " 1_0 ", "0b11", "-101", "1" * 63, "1" * 64, "١"],
    "hex_string": ["ff", "-Ff", "", " 0x1A ", "g", "7fffffffffffffff", "8000000000000000", "-0X8000000000000000"],
    "i": [0, 1, 5, 2 ** 32 - 1, 12345678, -1], "rule": [30, 90, 110, 0, 255, 300],
    "source_voltage": [10.0, 0.0, 220.5], "capacitance": [0.5, 1e-6, 0.0],
    "time_sec": [0.0, 1.0, 3.5], "old": [100.0, 0.0, -40.0, 2.5], "new": [110.0, 0.0, 33.3, 2.675],
    "amount": [0.0, 9.995, 10.005, 1234.5, -0.004, 1e300, 0.1],
    "torus_radius": [1.0, 0.0, 2.5, -1.0], "tube_radius": [1.0, 0.5, 3.0],
    "radius": [20.0, 0.0, 0.5, -1.0, 1e150], "celsius": FLOATS, "kelvin": FLOATS, "fahrenheit": FLOATS,
    "voltage": [0.0, 10.0, -2.5], "current": [0.0, 2.0, -0.0], "resistance": [5.0, 0.0, -1.0, 0.25],
    "side_a": [0, 3, 5, 8, -6, 2 ** 31], "side_b": [0, 4, 12, 15, 7, 2 ** 31],
    "input_1": [0, 1, 2, -1], "input_2": [0, 1, True + 1],
    "value": [0.0, -0.0, 1.5, 3.0, math.nan], "first": [0.0, 1.5, math.inf], "second": [1.5, -0.0, math.nan],
    "third": [3.0, 1.5], "pair": [(0, 0), (1, -1), (INT64_MAX, 1), (INT64_MIN, -1), (2, 40)],
    "members": [set(), {1, 2, 3}, {INT64_MAX, -1}, {INT64_MAX, 1}, {-5, 5, 2 ** 40}], "start": [0, 10, INT64_MIN],
    "numbers": [[], [1, 1, 2], [3, -3, 3, 7], [INT64_MAX, INT64_MAX], [INT64_MAX, 1, -1]],
}

# A name two functions give parameters of different types: the pool by name and type.
BY_NAME_AND_TYPE = {("number", float): FLOATS}

FUNCTIONS = python_callable(corpus)


def inputs_for(f):
    hints = typing.get_type_hints(f)
    pools = [BY_NAME_AND_TYPE.get((p, hints[p])) or BY_NAME.get(p) or BY_TYPE[hints[p]]
             for p in inspect.signature(f).parameters]
    return list(itertools.product(*pools))


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 35, 1500))


def test_rounding_and_digit_text_run_natively(suite):
    # Every case in the pools that CPython answers within int64 and without
    # OverflowError is native code's own answer: none goes back to CPython.
    finite = [x for x in FLOATS if math.isfinite(x) and abs(x) < 9e18]
    cases = {
        corpus.round_half_even: [(x,) for x in finite],
        corpus.round_to_places: [(x, n) for x in FLOATS for n in (0, 1, 2, 3, -1, -2, 400, -400)
                                 if abs(x) < 1e16 or n >= 0],
        corpus.round_int_to: [(x, n) for x in INTS for n in (0, 3, -1, -2, -3, -20) if abs(x) < 10 ** 18],
        corpus.power_mod: [(b, p, m) for b in BY_NAME["base"] for p in BY_NAME["power"] for m in BY_NAME["mod"]],
        corpus.modular_inverse: [(a, m) for a in BY_NAME["a"] for m in BY_NAME["m"]],
        corpus.to_bin: [(n,) for n in INTS], corpus.to_oct: [(n,) for n in INTS], corpus.to_hex: [(n,) for n in INTS],
        corpus.parse_in_base: [(t, b) for t in TEXTS for b in (0, 2, 8, 10, 16, 36, 1, 37)
                               if t.isascii() and _within_int64(lambda: int(t, b))],
        corpus.bits_to_int: [(b,) for b in BY_NAME["bits"] if b.isascii() and b != "1" * 64],
    }
    for f, args in cases.items():
        assert suite.check(f, args) == 0, f.__name__


def _within_int64(compute):
    try:
        return INT64_MIN <= compute() <= INT64_MAX
    except ValueError:
        return True


def _native(tmp_path, source, name):
    path = str(tmp_path / f"{name}.so")
    simple_compile(source, path)
    namespace = {}
    exec(source, namespace)
    return module_loader(path).get_function(name, signature=namespace[name]), namespace[name]


def test_documented_examples_natively(tmp_path):
    # round(2.675, 2) is 2.67 (the double is below the tie), ties go to the even neighbour for
    # floats and for ints rounded to tens, a negative float rounded to zero keeps its sign.
    source = ("def show(x: float, n: int, k: int) -> str:\n"
              "    return f'{round(x)} {round(x, n)} {round(k, n)} {pow(k, 3, 7)} {bin(k)} {hex(k)} {oct(k)} '"
              " + str(int(bin(k), 0))\n")
    native, python = _native(tmp_path, source, "show")
    expected = {(2.675, 2, 5): "3 2.67 5 6 0b101 0x5 0o5 5", (0.5, 0, -5): "0 0.0 -5 1 -0b101 -0x5 -0o5 -5",
                (-0.5, 0, 0): "0 -0.0 0 0 0b0 0x0 0o0 0", (2.5, -1, 25): "2 0.0 20 1 0b11001 0x19 0o31 25",
                (1234.5, -2, 35): "1234 1200.0 0 0 0b100011 0x23 0o43 35",
                (-0.4, 0, -25): "0 -0.0 -25 6 -0b11001 -0x19 -0o31 -25"}
    for args, text in expected.items():
        assert native(*args) == text == python(*args), args


@pytest.mark.parametrize("source, reason", [
    # A local named as the builtin: the call is of the local, which is no function natively.
    ("def f(x: float) -> int:\n    round = 3\n    return round\n", None),
    ("def f(x: int) -> str:\n    hex = str(x)\n    return hex + bin(x)\n", None),
    ("def f(x: float) -> int:\n    round = 3\n    y = round(x)\n    return y\n", "call of the local 'round'"),
    # The program's own function of that name is what is called.
    ("def pow(a: int, b: int) -> int:\n    return a - b\n\ndef f(x: int) -> int:\n    return pow(x, 2)\n", None),
    # Operands CPython refuses or natively unrepresented: TypeError in CPython, refused here.
    ("def f(x: float) -> float:\n    return pow(x, 2, 5)\n", "a modulus needs ints"),
    ("def f(x: float, n: float) -> float:\n    return round(x, n)\n", "round() of (float, float)"),
    ("def f(x: float) -> str:\n    return bin(x)\n", "bin() of float"),
    ("def f(x: int) -> int:\n    return int(x, 2)\n", "int() of (int, int)"),
])
def test_shadowing_and_refused_operands(source, reason):
    why = dict(check_eligible(source))["f"]
    if reason is None:
        assert why is None, why
    else:
        assert why is not None and reason in why, why


def test_a_program_pow_is_the_one_called(tmp_path):
    source = "def pow(a: int, b: int) -> int:\n    return a - b\n\ndef f(x: int) -> int:\n    return pow(x, 2)\n"
    native, _ = _native(tmp_path, source, "f")
    assert native(10) == 8


def test_pow_imported_from_math_is_maths(tmp_path):
    # `from math import pow` rebinds the name: math.pow's float, never the builtin's int.
    source = "from math import pow\n\ndef f(x: int) -> float:\n    return pow(x, 2)\n"
    native, python = _native(tmp_path, source, "f")
    assert repr(native(3)) == repr(python(3)) == "9.0"
