"""Differential tests over corpus_set_args: set (and list and dict) arguments
changed in place natively end as CPython leaves them, down to the set's
iteration order and the order pop() drains it afterwards (differential.py),
also when the function raises half way. Every set argument is built afresh
for each side by a seeded sequence of adds and discards, then a few pops,
so its table has dummies and a moved pop finger: the native copy-in and the
write-back must keep CPython's slots, not only its members."""
import copy
import inspect
import itertools
import random
import typing
from typing import Dict, List, Set, Tuple

import pytest

import corpus_set_args as corpus
from differential import DECLINED, Built, afterwards, both_sides, corpus_tests, outcome
from native import NativeFallback

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)
MODULUS = 2 ** 61 - 1
INT_POOL = list(range(-30, 60)) + [INT64_MAX, INT64_MIN, MODULUS, -MODULUS, 2 * MODULUS, 2 ** 62, 1024, 4096, 7919]
STR_POOL = ["", "a", "b", "ab", "héllo", "ü", "日本", "語", "😀", "a😀", "x" * 40] + [f"w{i}" for i in range(40)]
PAIR_POOL = [(a, s) for a in (-2, -1, 0, 1, 7, INT64_MIN) for s in ("", "a", "é", "日", "zz")]
MAX_CASES = 48


class Grown:
    """A set grown by seeded adds and discards (dummies in its table), then popped
    @p pops times (its pop finger moved): made the same way, it has the same table."""

    def __init__(self, pool, seed, steps, pops=0):
        self.pool, self.seed, self.steps, self.pops = pool, seed, steps, pops

    def __call__(self):
        r = random.Random(self.seed)
        s = set()
        for _ in range(self.steps):
            x = r.choice(self.pool)
            if r.random() < 0.35:
                s.discard(x)
            else:
                s.add(x)
        for _ in range(min(self.pops, len(s))):
            s.pop()
        return s

    def __repr__(self):
        return f"Grown(seed={self.seed}, steps={self.steps}, pops={self.pops})"


def grown(pool):
    return [Grown(pool, 0, 0), Grown(pool, 1, 1), Grown(pool, 2, 12, 1), Grown(pool, 3, 40, 3),
            Grown(pool, 4, 200, 5), Grown(pool, 5, 90)]


INT_LISTS = [[], [0], [5, 5, -1], [3, 1, 2, 1], list(range(-10, 30, 3)), [INT64_MAX, INT64_MIN, 0, 7919],
             [-3, 4], [MODULUS, -MODULUS, 1, -1, -2]]
STR_LISTS = [[], ["a"], ["the", "cat", "the", "hat"], ["héllo", "ü", "日本", "😀", "a😀"], ["", "a", "w3"],
             [f"w{i}" for i in range(0, 40, 3)]]
EDGES = [[], [(0, 1), (1, 2), (2, 0)], [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (5, 0)],
         [(i, (i * 7) % 23) for i in range(23)] + [(i, i + 1) for i in range(22)]]
COUNTS = [{}, {"a": 1, "the": 0}, {f"w{i}": i for i in range(0, 40, 3)}, {"cat": 2, "hat": 1, "the": 5}]
BY_TYPE = {Set[int]: grown(INT_POOL), set[str]: grown(STR_POOL), Set[str]: grown(STR_POOL),
           Set[Tuple[int, str]]: grown(PAIR_POOL), List[int]: INT_LISTS, List[str]: STR_LISTS,
           list[str]: STR_LISTS, List[Tuple[int, int]]: EDGES, Dict[str, int]: COUNTS,
           str: ["", "a", "w3", "the", "héllo wörld", "日本語😀"]}
BY_NAME = {"k": [0, 1, 3, 60], "d": [0, 1, -1, 7], "n": [0, 5, 40], "lo": [-5, 0, 10],
           "old": [0, 5, 1024, -30], "new": [0, 77, INT64_MIN], "start": [0, 1, 5], "node": [0, 3],
           "tag": ["", "é", "tag"]}

FUNCTIONS = [f for _, f in inspect.getmembers(corpus, inspect.isfunction) if f.__module__ == corpus.__name__]


def case(values):
    """Arguments made afresh on each side: each Grown set replayed, the rest copied."""
    return Built(lambda: tuple(v() if isinstance(v, Grown) else copy.deepcopy(v) for v in values), repr(values))


def inputs_for(f):
    hints = typing.get_type_hints(f)
    pools = [BY_NAME[p] if p in BY_NAME else BY_TYPE[hints[p]] for p in inspect.signature(f).parameters]
    cases = list(itertools.product(*pools))
    cases = [case(c) for c in cases[::max(1, len(cases) // MAX_CASES)]]
    if f.__name__ == "merge_both_ways":  # one set for both parameters: `a |= a`, then a.add()
        cases += [Built(lambda g=g: (g(),) * 2, f"same {g!r} twice") for g in grown(INT_POOL)]
    # A call that raises is declined natively (CPython runs it, see the test below): a few
    # of them, so the suite's bound on declines still means something, and never more than
    # the calls that return, so the function's own bound holds too (which calls raise can
    # depend on the hash seed: pop() takes a str set's members in hash order).
    raising = [c for c in cases if outcome(f, both_sides(c)[0])[0] == "raise"]
    returning = [c for c in cases if c not in raising]
    return returning + raising[:min(2, len(returning))]


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 36, 1000))


def test_raising_half_way_leaves_cpythons_changes(suite):
    # A function changing its arguments that raises half way copies nothing back: native
    # code declines with the caller's objects untouched, and CPython, run from the start,
    # leaves them changed up to the raise, as a NativeFunction with its Python version does.
    s = Grown(INT_POOL, 9, 120, 2)
    present = sorted(s())[:3]
    cases = [("remove_each", case((s, present + [10 ** 6] + present))),
             ("take_some", case((s, 500))),
             ("add_until_negative", case((Grown(INT_POOL, 3, 40), [5, 6, 7, -1, 8]))),
             ("take_then_divide", case((s, 0))),
             ("add_while_iterating", case((Grown(INT_POOL, 4, 200, 5),))),
             ("note_lengths", case(([], {"a": 1}, ["a", "bb", "ccc"]))),
             ("append_then_store", case(([4, 5], 7))),
             ("bump_known", case(({"a": 1, "b": 2}, ["a", "b", "zz", "a"]))),
             ("seen_and_counted", case((Grown(STR_POOL, 6, 60), {"w1": 9}, ["w1", "abcd", "héllo", "abc", "w2"])))]
    for name, args in cases:
        python = getattr(corpus, name)
        mine, theirs = both_sides(args)
        assert outcome(suite.module.get_function(name, signature=python), mine) == DECLINED, name
        assert afterwards(mine) == afterwards(args.make()), name
        mine, theirs = both_sides(args)
        want = outcome(python, theirs)
        assert want[0] == "raise" and theirs != args.make(), (name, want)
        with_python = suite.module.get_function(name, fallback=python, signature=python)
        assert outcome(with_python, mine) == want and with_python.fallbacks == 1, name
        assert afterwards(mine) == afterwards(theirs), name


def test_the_callers_own_set_is_changed(suite):
    # The caller's own set object gets CPython's table: later adds, iteration and pops go on
    # as CPython's.
    for seed in range(12):
        g = Grown(STR_POOL, 100 + seed, 30 + 15 * seed, seed % 4)
        mine, theirs = g(), g()
        r = random.Random(seed)
        words = [r.choice(STR_POOL + ["new", "néw"]) for _ in range(seed * 3)]
        suite.module.get_function("mark_seen", signature=corpus.mark_seen)(mine, words)
        corpus.mark_seen(theirs, words)
        assert list(mine) == list(theirs) and (mine != g() or theirs == g()), seed
        for w in ("later", "w7", "😀😀"):
            mine.add(w)
            theirs.add(w)
        mine.discard("w3")
        theirs.discard("w3")
        assert list(mine) == list(theirs)
        while theirs:
            assert mine.pop() == theirs.pop()
        assert not mine


def test_a_frozenset_argument_is_left_to_cpython(suite):
    # A frozenset cannot change: native code declines, leaving it as it was, and CPython raises.
    f = suite.module.get_function("add_all", signature=corpus.add_all)
    frozen = frozenset({1, 2, 3})
    with pytest.raises(NativeFallback):
        f(frozen, [4])
    assert frozen == frozenset({1, 2, 3})
    with pytest.raises(AttributeError, match="'frozenset' object has no attribute 'add'"):
        corpus.add_all(frozen, [4])
