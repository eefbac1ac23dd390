"""The differential check every corpus suite uses: a function's native
answer against CPython's, for each of its cases.

The native function is called without a Python version to fall back on, so
what is compared is what the native code computed: the same value of the
same type, or the same exception type with the same message, and the
arguments left as CPython leaves them (unchanged, or changed in place; a
set argument down to its iteration and pop order). The one exception is the
native code's explicit "cannot do this natively" (`NativeFallback`: an int64
overflow, a division beyond 2**53, text whose case mapping is not ASCII,
...): such a case is not compared, it is counted, and a suite may decline at most
`SUITE_DECLINE_SHARE` of its cases and a function at most
`FUNCTION_DECLINE_SHARE` of its own (a native body that declines everything
would otherwise pass)."""
import contextlib
import copy
import inspect
import io
import itertools
import os
import typing

import pytest

from native import NativeFallback, check_eligible, module_loader, simple_compile


class Built:
    """A case whose arguments @p make builds afresh for each side. A set made by a
    sequence of adds and discards has a table (slots, dummies, pop finger) that only
    making it the same way again reproduces: a copy (deepcopy, set.copy) re-inserts the
    members into a fresh table, so native code's copy-in and write-back of it would go
    untested."""

    def __init__(self, make, label):
        self.make, self.label = make, label

    def __repr__(self):
        return self.label


def both_sides(args):
    """The arguments for the native call and for CPython's: equal, and not shared."""
    if isinstance(args, Built):
        return args.make(), args.make()
    return copy.deepcopy(args), copy.deepcopy(args)


def afterwards(args):
    """How @p args look after a call: their repr (a set lists its iteration order), then
    the order pop() drains each set argument (its pop finger and dummies show there)."""
    shown = repr(args)
    return shown, [[s.pop() for _ in range(len(s))] for s in args if type(s) is set]


SUITE_DECLINE_SHARE = 0.05
FUNCTION_DECLINE_SHARE = 0.5
DECLINED = ("declined",)


def outcome(f, args):
    """What calling @p f on @p args does: ("value", type, repr), ("raise", type, message), or
    DECLINED when a native @p f says it cannot compute this call."""
    try:
        v = f(*args)
    except NativeFallback:
        return DECLINED
    except RecursionError:
        return ("raise", "RecursionError", "")
    except Exception as e:  # noqa: BLE001 - the type is what we compare
        return ("raise", type(e).__name__, str(e))
    # repr tells 0.0 from -0.0 and True from 1; NaN compares by repr too.
    return ("value", type(v).__name__, repr(v))


def printed_outcome(f, args):
    """outcome() of the call with what it wrote to sys.stdout (replaced for the call, as a program
    may replace it: print looks it up when it writes) after it."""
    written = io.StringIO()
    with contextlib.redirect_stdout(written):
        got = outcome(f, args)
    return got if got is DECLINED else got + (written.getvalue(),)


def factory_outcome(factory, args, calls):
    """What calling closure factory @p factory on @p args does, then calling what it returned on
    each of @p calls: DECLINED or ("raise", type, message) for the factory's call, else a list:
    the returned function's names (what CPython builds messages from), then each call's outcome."""
    made = []
    first = outcome(lambda *a: made.append(factory(*a)), args)
    if not made:
        return first
    f = made[0]
    return [("made", f.__name__, f.__qualname__, f.__module__, f.__doc__)] + [outcome(f, c) for c in calls]


def factory_cases(f, pool_for, max_cases, max_calls):
    """Cases for closure factory @p f: (its arguments, [arguments of calls of what it returns]),
    each sampled from pools as sampled_cases does; the calls' types are its `Callable[[...], R]`,
    the pool of the closure's argument i named `f.__name__:i`."""
    params, _ = typing.get_args(typing.get_type_hints(f)["return"])
    calls = list(itertools.product(*[pool_for(f"{f.__name__}:{i}", t) for i, t in enumerate(params)]))
    return [(args, calls[::max(1, len(calls) // max_calls)]) for args in sampled_cases(f, pool_for, max_cases)]


def sampled_cases(f, pool_for, max_cases):
    """At most about @p max_cases argument tuples for @p f, evenly sampled from the product of
    its parameters' pools (@p pool_for(name, annotation) gives one parameter's values)."""
    hints = typing.get_type_hints(f)
    cases = list(itertools.product(*[pool_for(p, hints[p]) for p in inspect.signature(f).parameters]))
    return cases[::max(1, len(cases) // max_cases)]


def python_callable(corpus_module):
    """The functions of @p corpus_module that take and return plain values only (no class of
    the corpus, which cannot cross into Python), so Python can call them."""
    classes = {name for name, c in inspect.getmembers(corpus_module, inspect.isclass)
               if c.__module__ == corpus_module.__name__}

    def plain(h):
        return not (inspect.isclass(h) and h.__name__ in classes) and all(plain(a) for a in typing.get_args(h))
    return [f for _, f in inspect.getmembers(corpus_module, inspect.isfunction) if f.__module__ ==
            corpus_module.__name__ and all(plain(h) for h in typing.get_type_hints(f).values())]


def inputs_by(by_name, by_type):
    """inputs_for(f): every combination of its parameters' pools, a parameter's pool taken
    from @p by_name by its name, else from @p by_type by its annotation."""
    def inputs_for(f):
        hints = typing.get_type_hints(f)
        pools = [by_name.get(p) or by_type[hints[p]] for p in inspect.signature(f).parameters]
        return list(itertools.product(*pools))
    return inputs_for


def compile_file(corpus_module, path):
    """Compile a whole corpus file into one module at @p path; every function must be callable from Python."""
    with open(corpus_module.__file__) as f:
        names = simple_compile(f.read(), path)
    return names


class Suite:
    """The functions of one corpus file, compiled into one module, with their cases."""

    def __init__(self, module, functions, inputs_for, factories=(), factory_inputs=None, observe=outcome,
                 falls_back=()):
        self.module = module
        self.observe = observe  # what a call does: outcome, or printed_outcome (its output too)
        # Functions checked with their Python version as the fallback: those whose native faults
        # (a raise, an int64 overflow) CPython must run from the start; how many calls it ran.
        self.falls_back = set(falls_back)
        self.fell_back = {}
        self.functions = functions
        self.inputs_for = inputs_for
        self.factories = list(factories)  # functions returning closures Python calls
        self.factory_inputs = factory_inputs
        self.declined = {}  # function name -> cases it declined, once checked

    @classmethod
    def build(cls, corpus_module, functions, inputs_for, directory, factories=(), factory_inputs=None,
              observe=outcome, falls_back=()):
        path = os.path.join(str(directory), corpus_module.__name__ + ".so")
        names = compile_file(corpus_module, path)
        assert sorted(names) == sorted(f.__name__ for f in list(functions) + list(factories))
        return cls(module_loader(path), functions, inputs_for, factories, factory_inputs, observe, falls_back)

    def check_factory(self, f, cases=None):
        """Assert that native closure factory @p f, and each closure it returns, answer every
        case as CPython's do (calls CPython could not make natively are declined, counted
        per call); returns how many it declined."""
        fast = self.module.get_function(f.__name__, signature=f)
        cases = self.factory_inputs(f) if cases is None else cases
        declined = total = 0
        for args, calls in cases:
            mine, theirs = both_sides(args)
            got, want = factory_outcome(fast, mine, calls), factory_outcome(f, theirs, calls)
            total += 1 + len(calls)
            if got is DECLINED:
                declined += 1 + len(calls)
                continue
            if isinstance(got, list) and isinstance(want, list):
                kept = [(g, w) for g, w in zip(got, want) if g is not DECLINED]
                declined += len(got) - len(kept)
                assert len(got) == len(want) and [g for g, _ in kept] == [w for _, w in kept], (f.__name__, args)
            else:
                assert got == want, (f.__name__, args)
        assert declined <= total * FUNCTION_DECLINE_SHARE, (f.__name__, declined, total)
        self.declined[f.__name__] = (declined, total)
        return declined

    def check(self, f, cases=None):
        """Assert that the native @p f answers every case as CPython's @p f does; returns how many it declined."""
        fallback = f if f.__name__ in self.falls_back else None
        fast = self.module.get_function(f.__name__, signature=f) if fallback is None else \
            self.module.get_function(f.__name__, fallback=fallback, signature=f)
        cases = self.inputs_for(f) if cases is None else cases
        declined = 0
        for args in cases:
            mine, theirs = both_sides(args)
            got = self.observe(fast, mine)
            if got is DECLINED:
                declined += 1
                continue
            assert got == self.observe(f, theirs), (f.__name__, args)
            # Arguments end as CPython leaves them (a list changed in place included).
            assert afterwards(mine) == afterwards(theirs), (f.__name__, args)
        assert declined <= len(cases) * FUNCTION_DECLINE_SHARE, (f.__name__, declined, len(cases))
        self.declined[f.__name__] = (declined, len(cases))
        if fallback is not None:
            self.fell_back[f.__name__] = (fast.fallbacks, len(cases))
        return declined

    def check_declines(self):
        """Assert the suite's share of declined cases (checking the functions no test checked yet)."""
        for f in self.functions:
            if f.__name__ not in self.declined:
                self.check(f)
        for f in self.factories:
            if f.__name__ not in self.declined:
                self.check_factory(f)
        declined = sum(d for d, _ in self.declined.values())
        total = sum(n for _, n in self.declined.values())
        assert total > 0
        assert declined <= total * SUITE_DECLINE_SHARE, (declined, total, sorted(
            (d, name) for name, (d, _) in self.declined.items() if d)[-10:])
        return declined, total


def corpus_tests(corpus_module, functions, inputs_for, min_functions, min_cases, factories=(), factory_inputs=None,
                 observe=outcome, falls_back=()):
    """The fixture and tests every corpus suite runs, as a dict for the test module's
    globals (`globals().update(corpus_tests(...))`): the corpus keeps its size, every
    function stays eligible (a native function becoming ineligible fails), each is
    checked against CPython, and the suite's declines are bounded. @p factories return
    closures, checked by Suite.check_factory on @p factory_inputs(f). @p observe and
    @p falls_back: Suite's."""

    @pytest.fixture(scope="module")
    def suite(tmp_path_factory):
        return Suite.build(corpus_module, functions, inputs_for, tmp_path_factory.mktemp("native"), factories,
                           factory_inputs, observe, falls_back)

    def test_corpus_size():
        assert len(functions) + len(factories) >= min_functions

    def test_every_corpus_function_is_eligible():
        with open(corpus_module.__file__) as f:
            eligible = {name for name, why in check_eligible(f.read()) if why is None}
        assert eligible == {f.__name__ for f in list(functions) + list(factories)}

    @pytest.mark.parametrize("f", list(functions) + list(factories), ids=lambda f: f.__name__)
    def test_same_meaning(suite, f):
        if f in factories:
            suite.check_factory(f)
        else:
            suite.check(f)

    def test_few_cases_declined(suite):
        declined, total = suite.check_declines()
        assert total > min_cases

    return {"suite": suite, "test_corpus_size": test_corpus_size,
            "test_every_corpus_function_is_eligible": test_every_corpus_function_is_eligible,
            "test_same_meaning": test_same_meaning, "test_few_cases_declined": test_few_cases_declined}
