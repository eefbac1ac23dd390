"""The doctests of real programs run natively against CPython: each module of
TheAlgorithms/Python that has a function native mode compiles
(realcode/eligibility.py's rows) runs its doctests twice in fresh
namespaces, first as CPython runs it, then with each such function replaced
by its compiled module (native.loader, with the Python function to fall back
on, as the guest binds it: the answers a user of native mode gets). Every
example's outcome (its output, or the exception type and message) is
compared; examples whose outcome differs between two CPython runs (random,
time) are left out and counted.

    /usr/bin/python3 bench/nativebench/realcode/doctests.py --toolchain build/spine-native \\
        --algorithms <TheAlgorithms> --rows rows.json --out report.json
"""
import argparse
import collections
import contextlib
import doctest
import hashlib
import io
import json
import os
import random
import signal
import sys
import tempfile
import types

RUN_SECONDS, BUILD_SECONDS = 60, 120


class _Timeout(BaseException):
    pass


def _alarm(*_):
    raise _Timeout()


def outcome(got):
    """An example's outcome: its output, or for an exception its last line, marked when
    the traceback chains another exception (CPython's shows one)."""
    if "Traceback (most recent call last)" not in got:
        return got
    last = [line for line in got.strip().splitlines() if line and not line.startswith(" ")][-1]
    return "raised " + last + (" [chained]" if "During handling" in got else "")


class Recorder(doctest.DocTestRunner):
    def __init__(self):
        super().__init__(verbose=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        self.log = []

    def report_success(self, out, test, example, got):
        self.log.append((test.name, example.source, outcome(got)))

    def report_failure(self, out, test, example, got):
        self.log.append((test.name, example.source, outcome(got)))

    def report_unexpected_exception(self, out, test, example, exc_info):
        self.log.append((test.name, example.source, f"raised {exc_info[0].__name__}: {exc_info[1]}"))


def run_doctests(path, source, module_loader, natives=None):
    """Every example's outcome, the module's functions in @p natives (name -> module path)
    replaced by their native versions after the tests were collected."""
    module = types.ModuleType("doctested")
    module.__file__ = path
    sys.modules["doctested"] = module
    random.seed(0)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, path, "exec"), module.__dict__)
    tests = doctest.DocTestFinder(recurse=True).find(module, "doctested", globs=module.__dict__)
    for name, so in (natives or {}).items():
        module.__dict__[name] = module_loader(so).get_function(name, fallback=module.__dict__[name])
    runner = Recorder()
    random.seed(0)
    for t in tests:
        t.globs = module.__dict__
        with contextlib.redirect_stdout(io.StringIO()):
            runner.run(t, out=lambda s: None, clear_globs=False)
    return runner.log


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--toolchain", required=True, help="the installed native toolchain (build/spine-native)")
    parser.add_argument("--guest", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "guest"))
    parser.add_argument("--algorithms", required=True)
    parser.add_argument("--rows", required=True, help="realcode/eligibility.py's rows")
    parser.add_argument("--modules", default=None, help="keep compiled modules here (default: a temporary dir)")
    parser.add_argument("--out", required=True, help="write the report here (JSON)")
    args = parser.parse_args()
    sys.modules.setdefault("_spine", types.ModuleType("_spine"))
    sys.path[:0] = [os.path.abspath(args.guest), os.path.join(args.toolchain, "python")]
    import hot
    import spine_compiler
    from native import compiler, loader, module_loader, service
    include = os.path.join(args.toolchain, "include")
    spine_compiler.include_path = include
    compiler.use_precompiled(include, os.path.join(args.toolchain, "pch"))
    tempfile.tempdir = tempfile.mkdtemp(prefix="spine-doctests-")
    modules = args.modules or tempfile.tempdir
    os.makedirs(modules, exist_ok=True)
    signal.signal(signal.SIGALRM, _alarm)
    fallbacks, why = collections.Counter(), collections.Counter()
    fall_back = loader.NativeFunction._fall_back

    def counted(self, args, error, kwargs=None):
        fallbacks[self.__name__] += 1
        why[type(error).__name__] += 1  # TypeError: another argument type; OverflowError: beyond int64; ...
        return fall_back(self, args, error, kwargs)
    loader.NativeFunction._fall_back = counted

    def build(name, source):
        out = os.path.join(modules, hashlib.sha256(f"{name}\0{source}".encode()).hexdigest()[:24] + ".so")
        if os.path.exists(out):
            return out, None
        signal.alarm(BUILD_SECONDS)
        try:
            r = service.handle({"id": 0, "name": name, "source": source, "out": out})
        finally:
            signal.alarm(0)
        return (out, None) if r["ok"] else (None, r)

    with open(args.rows) as f:
        eligible = collections.defaultdict(list)
        for corpus, file, function, reason in json.load(f):
            if corpus == "algorithms" and reason is None:
                eligible[file].append(function)
    report = {"files": 0, "native_functions": 0, "examples": 0, "unstable": 0, "mismatches": [],
              "not_run": [], "build_failures": []}
    for file in sorted(eligible):
        path = os.path.join(args.algorithms, file)
        with open(path) as f:
            source = f.read()
        signal.alarm(RUN_SECONDS)
        try:
            first, second = run_doctests(path, source, module_loader), run_doctests(path, source, module_loader)
        except (_Timeout, Exception, SystemExit) as e:  # noqa: BLE001 - a module that cannot run here (numpy, I/O)
            report["not_run"].append((file, f"CPython: {type(e).__name__}"))
            continue
        finally:
            signal.alarm(0)
        if not first:
            continue
        plan = hot.plan(source, set())
        natives = {}
        for name in eligible[file]:
            so, failure = build(name, plan.units[name].source)
            if so:
                natives[name] = so
            else:
                report["build_failures"].append((file, name, failure))
        if not natives:
            continue
        signal.alarm(RUN_SECONDS)
        try:
            native = run_doctests(path, source, module_loader, natives)
        except (_Timeout, Exception, SystemExit) as e:  # noqa: BLE001 - reported: a difference
            report["mismatches"].append((file, "<the native run>", "", f"{type(e).__name__}: {e}"))
            continue
        finally:
            signal.alarm(0)
        report["files"] += 1
        report["native_functions"] += len(natives)
        if len(native) != len(first):
            report["mismatches"].append((file, "<examples run>", len(first), len(native)))
        for a, b, c in zip(first, second, native):
            if a[2] != b[2]:
                report["unstable"] += 1
            else:
                report["examples"] += 1
                if a[2] != c[2]:
                    report["mismatches"].append((file, f"{a[0]}: {a[1].strip()}", a[2], c[2]))
    report["fallbacks"] = {"calls": sum(fallbacks.values()), "functions": len(fallbacks), "why": dict(why)}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    print(f"{report['files']} modules, {report['native_functions']} native functions, {report['examples']} doctest "
          f"examples compared: {len(report['mismatches'])} differ; {report['unstable']} left out (CPython's own "
          f"outcome varies), {len(report['not_run'])} modules CPython could not run here, "
          f"{len(report['build_failures'])} functions g++ did not build; {report['fallbacks']['calls']} calls of "
          f"{report['fallbacks']['functions']} functions went back to CPython ({dict(why.most_common())})")


if __name__ == "__main__":
    main()
