"""Differential tests over corpus_str_methods: count/find/rfind/startswith/
endswith from a start to an end (negative, past the end, int64's extremes),
prefixes and suffixes given as a tuple, split/rsplit with a separator, with
None or keywords and every kind of maxsplit, partitions, zfill, padding,
expandtabs, ASCII case changes and removeprefix/removesuffix, over empty,
ASCII and non-ASCII text (é, 日本語, emoji, the Unicode and \\x1c-\\x1f spaces
str.split() splits at). Every answer is the native function's own
(differential.py: no Python fallback), compared with CPython's value, type,
exception type and message."""
import typing

import pytest

import corpus_str_methods as corpus
from differential import DECLINED, corpus_tests, inputs_by, outcome, python_callable
from native import check_eligible

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

TEXTS = ["", "a", "abc abc", "  lead and trail  ", "aaaa", "é日本語é", "x\u3000y\x1cz\x1f w\x85",
         "tab\there\n\tnext\r\tx", "l1\r\nl2\n\n l3\u2028\x0b\x0c\x1d\x1e\r", "😀 emoji 😀", "a,b,,c,",
         "Hello wORLD it's 3rd", "+12", "-7"]
BY_TYPE = {str: TEXTS, int: [0, 1, 2, -1, -3, 5, 100, -100, INT64_MAX, INT64_MIN], bool: [False, True],
           typing.List[str]: [[], ["a"], ["id", "name", "日本", "😀x", ""]],
           typing.Tuple[str, ...]: [(), ("a",), ("", "x"), ("é", "😀", "c,"), ("ab", "abc abc")]}
BY_NAME = {"sub": ["", "a", "é", "ab", "😀", " ", "aa", "日本語"],
           "sep": ["", ",", "a", "日", " ", "/", "=", "é", ",,"],
           "prefix": ["", "a", "é日", "  ", "abc abc", "x\u3000"], "suffix": ["", "c", "é", "😀", "\r\tx"],
           "start": [0, 1, 2, -1, -3, 4, 13, 100, -100, INT64_MAX, INT64_MIN],
           "end": [0, 2, -1, -2, 5, 13, 100, -100, INT64_MAX, INT64_MIN],
           "maxsplit": [0, 1, 2, -1, -5, INT64_MAX], "count": [0, 1, 2, -1, INT64_MAX],
           "width": [-5, 0, 3, 8, 21], "tabsize": [-1, 0, 1, 4, 8], "fill": [" ", "é", "😀", "", "ab"],
           "number": [0, 1, -1, 5, 255, -128, 1000],
           "line": ["", "k=v", " key = value = more ", "no separator", "a=", "=b", "é=日本", "a,b , c,,", "x==y"],
           "path": ["", "a.b", "archive.tar.gz", "/usr/lib/é.so", "noext", ".hidden", "a/b/c.txt", "日本/語.py"],
           "url": ["", "http://x.org", "https://é.jp/a", "ftp://a", "http:/", "https://"],
           "word": ["", "http://a", "https://b", "HTTP://c", "http", "日本 https://"],
           "name": ["", "test_a", "test_", "a_test_", "img.png", "photo.JPG", "pic.jpeg", "é.jpg", "test_é.py"]}

FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 48, 30000))

# What needs Unicode's case and numeric tables for non-ASCII text: CPython's (the FALLBACK fault).
CASE_AND_NUMERIC = {"is_number", "count_decimal_tokens", "swap", "title_case", "capitalize_sentence"}


# The cases whose TypeError or ValueError CPython raises (the FALLBACK fault): a fill that is not
# one character, a list unpacked into names of another count.
RAISED_BY_CPYTHON = {"centered": lambda args: len(args[2]) != 1, "parse_key_value": lambda args: "=" not in args[0]}


@pytest.mark.parametrize("f", [f for f in FUNCTIONS if f.__name__ not in CASE_AND_NUMERIC], ids=lambda f: f.__name__)
def test_non_ascii_text_is_answered_natively(suite, f):
    # Code-point positions, UTF-8 matching and Unicode whitespace are native: nothing declined.
    by_cpython = RAISED_BY_CPYTHON.get(f.__name__, lambda args: False)
    cases = [args for args in inputs_for(f) if not by_cpython(args)]
    assert suite.check(f, cases) == 0, f.__name__


@pytest.mark.parametrize("name", sorted(RAISED_BY_CPYTHON))
def test_what_cpython_raises_is_declined(suite, name):
    f = getattr(corpus, name)
    cases = [args for args in inputs_for(f) if RAISED_BY_CPYTHON[name](args)]
    fast = suite.module.get_function(name, signature=f)
    assert cases and all(outcome(fast, args) == DECLINED for args in cases)


def test_cpythons_messages_for_them(suite):
    with pytest.raises(TypeError, match="^The fill character must be exactly one character long$"):
        corpus.centered("a", 5, "ab")
    with pytest.raises(ValueError, match=r"^not enough values to unpack \(expected 2, got 1\)$"):
        corpus.parse_key_value("no separator")


def test_case_and_numeric_of_ascii_text_are_native(suite):
    for f in (corpus.is_number, corpus.count_decimal_tokens, corpus.swap, corpus.title_case,
              corpus.capitalize_sentence):
        assert suite.check(f, [args for args in inputs_for(f) if all(a.isascii() for a in args)]) == 0, f.__name__


@pytest.mark.parametrize("source, construct", [
    # Keywords evaluated in another order than the parameters'.
    ("def f(s: str) -> list[str]:\n    return s.split(maxsplit=1, sep=',')\n", "CallKeywords"),
    # No keyword but split's.
    ("def f(s: str) -> int:\n    return s.count('a', start=1)\n", "CallKeywords"),
    # A fixed-length tuple value of prefixes (a display is a tuple[str, ...]).
    ("def f(s: str, p: tuple[str, str]) -> bool:\n    return s.startswith(p)\n", "Method"),
])
def test_what_stays_unsupported_is_refused_clearly(source, construct):
    why = dict(check_eligible(source))["f"]
    assert why is not None and construct in why, why
