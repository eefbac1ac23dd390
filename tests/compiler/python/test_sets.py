"""Differential tests over corpus_sets: sets iterated, popped, combined and
returned natively give CPython's answers, iteration order included (the
outcome's repr lists a set in its iteration order). Seeded random sequences
of operations (thousands each) over ints (negatives, int64 bounds, -1 and
-2 which hash alike, multiples of 2**61-1), strs (ASCII, Latin-1, BMP and
astral text: each hashed in its own width) and tuples replay the table's
whole life natively and in CPython."""
import inspect
import itertools
import random
import typing

import corpus_sets as corpus
from differential import corpus_tests, outcome
from native import module_loader, simple_compile

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)
MODULUS = 2 ** 61 - 1
INT_POOL = list(range(-40, 41)) + [INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, MODULUS, MODULUS + 1,
                                   -MODULUS, 2 * MODULUS, 2 ** 62, -(2 ** 62), 8, 16, 1024, 4096]
STR_POOL = ["", "a", "b", "ab", "ba", "héllo", "ü", "日本", "語", "😀", "a😀", "ÿ", "Ā", "x" * 40] + \
    [f"w{i}" for i in range(40)]
PAIR_POOL = [(a, s) for a in (-2, -1, 0, 1, 7, INT64_MIN) for s in ("", "a", "é", "日", "zz")]


def drained(seen):
    """A set made the way programs make them (grown, then some members dropped), so its
    table holds dummies: a native copy must keep CPython's slots, not just its members."""
    s = set(seen)
    for x in list(seen)[::3]:
        s.discard(x)
    return s


INT_LISTS = [[], [0], [5, 5], [3, 1, 2, 1], [-1, -2, -1], [INT64_MAX, INT64_MIN, 0], list(range(30)),
             [8 * i for i in range(12)], [MODULUS, 1, -MODULUS, -1, -2]]
STR_LISTS = [[], ["a"], ["the", "cat", "the", "hat"], ["héllo", "hé", "日本", "😀"], ["", "a"],
             [f"w{i}" for i in range(25)]]
INT_SETS = [set(), {1}, {-1, -2}, drained(range(40)), drained([INT64_MAX, INT64_MIN, 5, 13, 21, 29]),
            set(range(0, 64, 8))]
STR_SETS = [set(), {"a"}, drained(STR_POOL), {"日本", "a", ""}]
BY_TYPE = {int: [0, 1, -1, 5, 13, INT64_MAX, INT64_MIN], str: ["", "abc", "bab", "aéb", "日本語", "abcabc"],
           typing.List[int]: INT_LISTS, typing.List[str]: STR_LISTS, typing.List[typing.List[int]]: [
               [], [[]], [[1, 2], [2, 3]], [[5], list(range(20)), [-1, -2]]],
           typing.List[typing.Tuple[int, int]]: [[], [(1, 2), (2, 1)], [(0, 0), (0, 1), (1, 0), (1, 2)],
                                                 [(1, 2), (2, 3), (3, 1), (4, 4)]],
           typing.Set[int]: INT_SETS, typing.Set[str]: STR_SETS,
           typing.Dict[str, int]: [{}, {"a": 1, "b": 0, "日": 3}, {f"k{i}": i % 3 for i in range(20)}]}
SMALL = [0, 1, 3, -2, 12]  # sizes and bounds: CPython would build range(2**63) too
MAX_CASES = 60



def from_source(module):
    """The module's functions compiled from its source, as the guest compiles a program: an
    imported module may come from a .pyc, whose folded set displays marshal rebuilt in
    another order (CPython's own answer then differs from its answer for the source)."""
    namespace = {"__name__": module.__name__}
    with open(module.__file__) as f:
        exec(compile(f.read(), module.__file__, "exec"), namespace)  # noqa: S102 - our own corpus
    return namespace


SOURCE = from_source(corpus)
FUNCTIONS = [SOURCE[name] for name, f in inspect.getmembers(corpus, inspect.isfunction)
             if f.__module__ == corpus.__name__]


def random_ops(seed, pool, count):
    r = random.Random(seed)
    return [(r.choice((0, 0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)),
             r.choice(pool)) for _ in range(count)]


# replay_ints for other members: its source with the member type replaced.
MEMBER_TYPES = {"replay_strs": ("str", STR_POOL), "replay_pairs": ("Tuple[int, str]", PAIR_POOL)}


def replay_source():
    source = inspect.getsource(corpus.replay_ints)
    variants = []
    for name, (member, _) in MEMBER_TYPES.items():
        variants.append(source.replace("replay_ints", name).replace("Tuple[int, int]", f"Tuple[int, {member}]")
                        .replace("List[int]", f"List[{member}]").replace("Set[int]", f"Set[{member}]"))
    return "from typing import List, Set, Tuple\n\n" + "\n\n".join(variants)


def inputs_for(f):
    if f.__name__ == "replay_ints":
        return [(random_ops(seed, INT_POOL, 60),) for seed in range(4)]
    hints = typing.get_type_hints(f)
    pools = [SMALL if hints[p] is int and p in ("n", "k", "lo", "hi") else BY_TYPE[hints[p]]
             for p in inspect.signature(f).parameters]
    cases = list(itertools.product(*pools))
    return cases[::max(1, len(cases) // MAX_CASES)]


globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 60, 600))


def test_random_operation_sequences_follow_cpython_order(suite, tmp_path):
    # Each sequence: adds, discards, pops, clears, | & - ^ (new and in place), update, copy,
    # iteration and set(list) over one pool; 2,000-4,000 operations per sequence.
    source = replay_source()
    path = str(tmp_path / "replays.so")
    simple_compile(source, path)
    variants = module_loader(path)
    namespace = {}
    exec(compile(source, "<replays>", "exec"), namespace)  # noqa: S102 - our own corpus, retyped
    cases = [(suite.module, "replay_ints", SOURCE["replay_ints"], INT_POOL)] + \
        [(variants, name, namespace[name], pool) for name, (_, pool) in MEMBER_TYPES.items()]
    for module, name, reference, pool in cases:
        f = module.get_function(name)
        for seed in range(6):
            ops = random_ops(1000 + seed, pool, 2000 + 400 * seed)
            assert outcome(f, (ops,)) == outcome(reference, (ops,)), (name, seed)


def test_a_returned_set_goes_on_as_cpythons_would(suite):
    # The set handed back has CPython's table: later adds, pops and iteration agree too.
    f = suite.module.get_function("without")
    for seed in range(20):
        r = random.Random(seed)
        xs = [r.choice(INT_POOL) for _ in range(r.randint(0, 300))]
        ys = [r.choice(INT_POOL) for _ in range(r.randint(0, 300))]
        mine, theirs = f(xs, ys), SOURCE["without"](xs, ys)
        assert type(mine) is set and list(mine) == list(theirs)
        for v in (3, 1000, -7, INT64_MAX):
            mine.add(v)
            theirs.add(v)
        assert list(mine) == list(theirs)
        while theirs:
            assert mine.pop() == theirs.pop()
        assert not mine


def test_set_arguments_keep_cpythons_table(suite):
    # A set argument with dummies and a moved pop finger: iteration, copies and pops of it
    # natively follow the caller's own table.
    s = set(range(100))
    for x in range(0, 100, 3):
        s.discard(x)
    s.pop()
    s.pop()
    assert suite.module.get_function("doubled_members")(s) == SOURCE["doubled_members"](s)
    assert list(suite.module.get_function("merged")(s, {7, 1000, -3})) == list(SOURCE["merged"](s, {7, 1000, -3}))
    words = set(STR_POOL)
    words.discard("w3")
    got, want = suite.module.get_function("merged_words")(words, "new"), SOURCE["merged_words"](words, "new")
    assert list(got) == list(want)


def test_constant_displays_build_cpythons_table(tmp_path):
    # More than two constants: CPython folds the display into a frozenset constant (rebuilt
    # once by its constant merging) and merges that into a new set, which orders the members
    # differently from adding them one by one about half the time; a display that is only
    # iterated is iterated as the frozenset constant itself.
    r = random.Random(7)
    displays = []
    for n in range(40):
        items = [repr((r.randint(-9, 9), r.randint(-9, 9))) if n % 3 == 0 else str(r.randint(-300, 300))
                 for _ in range(r.randint(3, 14))]
        displays.append("{" + ", ".join(items) + "}")
    source = "from typing import List, Tuple\n\n" + "".join(
        f"\ndef d{i}() -> List[{'Tuple[int, int]' if i % 3 == 0 else 'int'}]:\n    s = {d}\n"
        f"    return [x for x in s] + [x for x in {d}]\n" for i, d in enumerate(displays))
    path = str(tmp_path / "displays.so")
    simple_compile(source, path)
    module = module_loader(path)
    namespace = {}
    exec(compile(source, "<displays>", "exec"), namespace)  # noqa: S102 - generated above
    for i in range(len(displays)):
        assert module.get_function(f"d{i}")() == namespace[f"d{i}"](), displays[i]
