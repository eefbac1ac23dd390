"""Tuple and list comparisons and the code-point scans of str, natively against
CPython (differential.py's outcome: the native answer itself, no fallback).
A tuple's comparison asks an int, bool or str element's order alone, as that
order also says whether the two are equal (containers of floats are not
compared natively at all); len(), s[i], slices and find() of non-ASCII text
count code points out of line."""
import itertools

import pytest

from differential import DECLINED, outcome
from native import module_loader, simple_compile

SOURCE = '''
from typing import Dict, List, Tuple


def pair_less(a: Tuple[str, int], b: Tuple[str, int]) -> bool:
    return a < b


def triple_order(a: Tuple[int, str, bool], b: Tuple[int, str, bool]) -> int:
    return int(a > b) - int(a < b)


def nested_sorted(xs: List[Tuple[Tuple[int, str], bool]]) -> List[Tuple[Tuple[int, str], bool]]:
    return sorted(xs)


def words_less(a: List[str], b: List[str]) -> bool:
    return a < b


def ranked(words: List[str]) -> List[Tuple[str, int]]:
    counts: Dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def positions(s: str, sub: str) -> Tuple[int, int, str, str, str]:
    last = s[-1] if s else ""
    return len(s), s.find(sub), s[1:4], s[::2], last
'''

TEXTS = ["", "a", "ab", "abc", "b", "héllo", "hé", "日本語", "😀a😀", "a" * 17, "a" * 16 + "b"]
INTS = [0, 1, -1, 2 ** 63 - 1, -(2 ** 63)]


@pytest.fixture(scope="module")
def native(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("order") / "order.so")
    simple_compile(SOURCE, path)
    return module_loader(path), _python()


def _python():
    namespace = {}
    exec(SOURCE, namespace)  # noqa: S102 - our own source, CPython's meaning to compare with
    return namespace


CASES = {
    "pair_less": [((a, i), (b, j)) for a, b in itertools.product(TEXTS[:6], repeat=2) for i, j in ((0, 1), (1, 1))],
    "triple_order": [((i, a, p), (j, b, q)) for i, j in ((0, 0), (1, 0), (-1, 2 ** 63 - 1))
                     for a, b in (("x", "x"), ("hé", "h"), ("", "a")) for p, q in ((False, True), (True, True))],
    "nested_sorted": [([((1, "b"), True), ((1, "a"), False), ((0, "z"), True), ((1, "a"), True)],),
                      ([((i % 3, TEXTS[i % len(TEXTS)]), i % 2 == 0) for i in range(40)],), ([],)],
    "words_less": [(a, b) for a, b in itertools.product([[], ["a"], ["a", "b"], ["a", "c"], ["hé"], ["h", "é"]],
                                                        repeat=2)],
    "ranked": [(["b", "a", "b", "héllo", "a", "b"],), ([],), (["日本", "日本語", "日本"],), (TEXTS * 3,)],
    "positions": [(s, sub) for s in TEXTS for sub in ("", "a", "é", "語", "zz")],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_cpython(native, name):
    module, python = native
    fast = module.get_function(name, signature=python[name])
    for args in CASES[name]:
        got = outcome(fast, args)
        assert got is not DECLINED, (name, args)
        assert got == outcome(python[name], args), (name, args)
