"""Which typed functions of code nobody here wrote native mode compiles: the
guest's plan (guest/hot.py) and the frontend's check (native.check_eligible),
as `--native eager` decides, without running g++.

The corpora are not in this repository; fetch them at the commits the
results name (bench/RESULTS.md) and pass their paths:

- mypyc's run tests: `mypyc/test-data/run-*.test` of python/mypy, each
  `[case ...]`'s main module;
- TheAlgorithms/Python: every `.py` file outside its tests.

A typed function is a module-level `def` with a return annotation and every
parameter annotated. Prints, per corpus, the share compiled natively and the
reasons for the rest by count, and writes one row per function (corpus,
file, function, reason or null) as JSON for realcode/doctests.py.

    /usr/bin/python3 bench/nativebench/realcode/eligibility.py --toolchain-python build/runtime/python \\
        --mypyc <mypy>/mypyc/test-data --algorithms <TheAlgorithms> --rows rows.json
"""
import argparse
import ast
import collections
import glob
import json
import os
import re
import signal
import sys
import types

PLAN_SECONDS, CHECK_SECONDS = 20, 30  # a pathological file must not stall the run


class _Timeout(Exception):
    pass


def _alarm(*_):
    raise _Timeout()


def typed(fdef):
    a = fdef.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p]
    return fdef.returns is not None and all(p.annotation is not None for p in params)


def mypyc_sources(test_data):
    for path in sorted(glob.glob(os.path.join(test_data, "run-*.test"))):
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r"^\[case (\w+)\]\n(.*?)(?=^\[)", text, re.S | re.M):
            yield f"{os.path.basename(path)}:{m.group(1)}", m.group(2)


def algorithm_sources(root):
    for path in sorted(glob.glob(os.path.join(root, "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, root)
        if "test" in os.path.basename(rel).lower() or "/tests/" in "/" + rel:
            continue
        with open(path, errors="replace") as f:
            yield rel, f.read()


def reason_of(name, plan, checked, compiler):
    """None if @p name compiles natively, else why not."""
    reason = plan.reasons.get(name)
    if reason is not None:
        return reason
    unit = plan.units.get(name)
    if unit is None:
        return "no unit"
    if unit.source not in checked:
        signal.alarm(CHECK_SECONDS)
        try:
            checked[unit.source] = dict(compiler.check_eligible(unit.source))
        except Exception as e:  # noqa: BLE001 - a crash is a result too
            checked[unit.source] = {name: f"frontend crashed: {type(e).__name__}: {e}"}
        finally:
            signal.alarm(0)
    return checked[unit.source].get(name, "not checked")


def coarse(reason):
    """The reason without names and positions, to count alike refusals together."""
    r = re.sub(r"line \d+(, column \d+)?: ", "", reason)
    r = re.sub(r"\([^)]*\)", "(..)", r)
    r = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "X", r)
    r = re.sub(r"uses the global \w+", "uses a global of another module or package", r)
    r = re.sub(r"calls \w+\(?\)?, which", "calls F, which", r)
    return r[:100]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--toolchain-python", required=True, help="directory of spine_compiler (build/runtime/python)")
    parser.add_argument("--guest", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "guest"))
    parser.add_argument("--mypyc", required=True, help="mypyc/test-data of python/mypy")
    parser.add_argument("--algorithms", required=True, help="a checkout of TheAlgorithms/Python")
    parser.add_argument("--rows", required=True, help="write every function's row here (JSON)")
    args = parser.parse_args()
    sys.modules.setdefault("_spine", types.ModuleType("_spine"))  # hot.py's crossing; never called here
    sys.path[:0] = [os.path.abspath(args.guest), os.path.abspath(args.toolchain_python)]
    import hot
    from native import compiler
    signal.signal(signal.SIGALRM, _alarm)

    rows, refusals, totals = [], collections.defaultdict(collections.Counter), collections.Counter()
    sources = [("mypyc", n, s) for n, s in mypyc_sources(args.mypyc)]
    sources += [("algorithms", n, s) for n, s in algorithm_sources(args.algorithms)]
    for corpus, name, source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and typed(n)]
        if not functions:
            continue
        signal.alarm(PLAN_SECONDS)
        try:
            plan = hot.plan(source, set(), tree)
        except Exception as e:  # noqa: BLE001
            plan = None
            crashed = f"plan crashed: {type(e).__name__}: {e}"
        finally:
            signal.alarm(0)
        checked = {}
        for f in functions:
            reason = crashed if plan is None else reason_of(f.name, plan, checked, compiler)
            rows.append((corpus, name, f.name, reason))
            totals[corpus] += 1
            if reason is None:
                totals[corpus, "native"] += 1
            else:
                refusals[corpus][coarse(reason)] += 1
    with open(args.rows, "w") as f:
        json.dump(rows, f, indent=0)
    for corpus in ("mypyc", "algorithms"):
        n, t = totals[corpus, "native"], totals[corpus]
        print(f"{corpus}: {n} of {t} typed functions native ({100 * n / max(t, 1):.1f}%)")
        for reason, count in refusals[corpus].most_common(15):
            print(f"  {count:5d}  {reason}")


if __name__ == "__main__":
    main()
