"""Differential tests over corpus_formatting (format specs, format(), repr(),
str() of floats, divmod): every function, compiled natively, gives
CPython's text or raises CPython's exception (differential.py: the native
answer itself, no Python fallback). Seeded random specs over the whole
mini-language (fill, align, sign, z, #, 0, width, grouping, precision and
every type) are compiled into one module and compared value by value; the
floats include every power of two, where repr's shortest digits are the
hardest to find."""
import inspect
import math
import random
import struct
import typing

import pytest

import corpus_formatting as corpus
from differential import corpus_tests, outcome, sampled_cases
from native import NativeFallback, check_eligible, module_loader, simple_compile

MAX_CASES = 60
INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

INTS = [0, 1, -1, 7, 42, 65, 255, 1234567, -9876543, 86399, 0x1F600, 0x110000, INT64_MAX, INT64_MIN]
FLOATS = [0.0, -0.0, 0.1, 1 / 3, 2.675, 1.5, -2.5, 0.125, 1e16, 1e15, 1e-5, 123456.789, -1e300, 5e-324,
          2.0 ** -1022, 1.7976931348623157e308, math.inf, -math.inf, math.nan, -0.004, 9007199254740993.0]
STRS = ["", "a", "abc", "héllo", "日本語", "😀x", "it's", 'say "hi"', "tab\tnew\nline", "x" * 30]
BY_TYPE = {int: INTS, float: FLOATS, str: STRS, bool: [True, False],
           typing.List[int]: [[], [0], [255, 256, -1, 4096], [INT64_MAX, INT64_MIN, 7], [3, 50, 0, 12]],
           typing.List[float]: [[], [1.5], [0.5, -2.0, 3.25], [-0.0, 1e20, 1e-7], [math.inf, math.nan, 1.0]],
           typing.List[str]: [[], ["a"], ["alice", "bob", "日本"], ["", "x" * 15]],
           typing.List[typing.List[float]]: [[], [[]], [[1.0, -2.5], [1e10, 0.001]], [[math.nan, -0.0]]]}
BY_NAME = {"base": [2, 8, 10, 16, 1, 17], "b": [3, -3, 0, 7, -1, INT64_MIN], "width": [0, 10, 30],
           "seconds": [0, 59, 60, 3599, 3600, 86399, 90061, -1, -3661]}
FLOAT_DIVISORS = [3.0, -3.0, 0.0, -0.0, 0.5, math.inf, math.nan, 1e-300]

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def pool(name, hint):
    if name == "b" and hint is float:
        return FLOAT_DIVISORS
    return BY_NAME[name] if name in BY_NAME and hint in (int, float) else BY_TYPE[hint]


def inputs_for(f):
    return sampled_cases(f, pool, MAX_CASES)


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 46, 1400))


def random_spec(r):
    s = ""
    if r.random() < 0.4:
        s += r.choice(["", "*", "0", "é", "日", "😀", "x", " ", "_", ",", "<", "{"]) + r.choice("<>=^")
    s += r.choice(["", "", "+", "-", " "]) + ("z" if r.random() < 0.15 else "") + ("#" if r.random() < 0.2 else "")
    s += ("0" if r.random() < 0.25 else "") + (str(r.choice([0, 1, 3, 8, 12, 25])) if r.random() < 0.6 else "")
    s += r.choice(["", "", "", ",", "_"])
    s += "." + str(r.choice([0, 1, 2, 3, 6, 15, 16, 17, 25, 120])) if r.random() < 0.5 else ""
    return s + r.choice(list("dboxXceEfFgG%s") + ["", ""])


def spec_module(tmp_path, seed, count):
    """One native module of f-string functions with random specs CPython accepts for their type."""
    r = random.Random(seed)
    samples = {"int": 0, "float": 0.0, "str": ""}
    lines, specs = [], []
    while len(specs) < count:
        ty, spec = r.choice(["int", "float", "float", "str"]), random_spec(r)
        try:
            format(samples[ty], spec)
        except ValueError:
            continue
        if "{" in spec or "}" in spec:
            continue
        i = len(specs)
        specs.append((ty, spec))
        lines.append(f"def f{i}(x: {ty}) -> str:\n    return f'<{{x:{spec}}}>'\n")
    source = "\n".join(lines)
    path = str(tmp_path / f"specs{seed}.so")
    simple_compile(source, path)
    namespace = {}
    exec(compile(source, "<specs>", "exec"), namespace)  # noqa: S102 - generated above
    return module_loader(path), namespace, specs


def random_float(r):
    c = r.random()
    if c < 0.3:
        return struct.unpack("d", struct.pack("Q", r.getrandbits(64)))[0]
    if c < 0.6:
        return r.choice([1, -1]) * 2.0 ** r.randint(-1074, 1023)
    return r.uniform(-1, 1) * 10 ** r.randint(-30, 30)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_specs_lay_out_as_cpython(tmp_path, seed):
    module, namespace, specs = spec_module(tmp_path, seed, 150)
    r = random.Random(seed)
    declined = total = 0
    for i, (ty, spec) in enumerate(specs):
        fast, reference = module.get_function(f"f{i}"), namespace[f"f{i}"]
        values = {"int": INTS + [r.getrandbits(63) - 2 ** 62 for _ in range(10)],
                  "float": FLOATS + [random_float(r) for _ in range(30)], "str": STRS}[ty]
        for v in values:
            got = outcome(fast, (v,))
            total += 1
            if got == ("declined",):
                declined += 1  # only '%c' beyond U+10FFFF, whose OverflowError is CPython's
                assert spec.endswith("c") and not 0 <= v <= 0x10FFFF, (spec, v)
                continue
            assert got == outcome(reference, (v,)), (spec, v)
    assert total > 3000 and declined < total * 0.05


def test_repr_finds_the_shortest_digits_of_every_power_of_two(suite):
    # At a power of two the doubles below are twice as close as those above: the shortest
    # decimal that reads back is sometimes above the closest one (CPython's dtoa finds it).
    f = suite.module.get_function("str_of_float")
    for k in range(-1074, 1024):
        for v in (2.0 ** k, -(2.0 ** k)):
            assert f(v) == corpus.str_of_float(v), v


def test_percent_c_beyond_unicode_goes_back_to_cpython(suite):
    f = suite.module.get_function("octal_and_hex")
    assert f(INT64_MIN) == corpus.octal_and_hex(INT64_MIN)
    with pytest.raises(NativeFallback):
        suite.module.get_function("quoted")("héllo")  # repr of non-ASCII text: printability is CPython's


def test_float_divmod_by_zero_says_divmod(suite):
    for name in ("split_float", "split_mixed"):
        with pytest.raises(ZeroDivisionError, match=r"^float divmod\(\)$"):
            suite.module.get_function(name)(1, 0.0) if name == "split_mixed" else \
                suite.module.get_function(name)(1.0, 0.0)
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        suite.module.get_function("split_pair")(5, 0)


@pytest.mark.parametrize("source, construct", [
    ("def f(x: float) -> str:\n    return f'{x:d}'\n", "FormatSpec"),
    ("def f(s: str) -> str:\n    return f'{s:=5}'\n", "FormatSpec"),
    ("def f(n: int) -> str:\n    return f'{n:.2}'\n", "FormatSpec"),
    ("def f(n: int) -> str:\n    return f'{n:n}'\n", "FormatSpec"),
    ("def f(n: int, w: int) -> str:\n    return f'{n:{w}}'\n", "FormatSpec"),
    ("def f(s: str) -> str:\n    return f'{s!a}'\n", "FormatSpec"),
    ("def f(x: float) -> str:\n    return f'{x:.900f}'\n", "FormatSpec"),
    ("def f(x: float, s: str) -> str:\n    return format(x, s)\n", "FormatSpec"),
    ("def f(xs: list[int]) -> str:\n    return f'{xs:>3}'\n", "FormatType"),
    ("def f(a: int, b: int) -> str:\n    return '{}'.format(a, b)\n", "FormatSpec"),
    ("def f(a: list[int]) -> str:\n    return '{1}{0}'.format(a[0], a[1])\n", "FormatSpec"),
    ("def f(a: int) -> str:\n    return '{0}{}'.format(a, a)\n", "FormatSpec"),
    ("def f(a: int) -> str:\n    return '{x}'.format(a)\n", "FormatSpec"),
    ("def f(a: int) -> str:\n    return '{:{}}'.format(a, 3)\n", "FormatSpec"),
    ("def f(a: int) -> str:\n    return '{'.format(a)\n", "FormatSpec"),
])
def test_specs_cpython_would_refuse_stay_in_cpython(source, construct):
    [(name, why)] = check_eligible(source)
    assert name == "f" and why is not None and f": {construct}: " in why, why


def test_text_longer_than_the_first_buffer_is_laid_out_whole(tmp_path):
    # The runtime lays the text out into a 256-byte buffer first and is asked again,
    # into a string of its size, for a longer one: both answers must be CPython's.
    source = ("def wide(x: float, s: str, i: int) -> str:\n"
              "    return f'{x:*^300.120f}|{s:\\u00e9<400}|{x:,.200e}|{i:_>+500,d}|{x:.3f}'\n")
    path = str(tmp_path / "wide.so")
    simple_compile(source, path)
    namespace = {}
    exec(compile(source, "<wide>", "exec"), namespace)  # noqa: S102 - the source above
    fast, reference = module_loader(path).get_function("wide"), namespace["wide"]
    for x, s, i in [(1.5, "", 0), (-1e300, "日本語", INT64_MIN), (math.nan, "x" * 600, INT64_MAX)]:
        assert len(reference(x, s, i)) > 1000
        assert outcome(fast, (x, s, i)) == outcome(reference, (x, s, i)), (x, s, i)
