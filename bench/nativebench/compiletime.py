"""Cold compile time per module over the corpus, as the compile service does
it: every unit the guest would hand the host (a function with what it calls,
its imports, constants and classes; guest/hot.py's plan) from the compiler's
corpora and the benchmark kernels, built one at a time by
native.service.build (frontend, C++ generation, g++, rename into place).

For each module: wall time, the service's own CPU time (frontend and C++
generation) and the CPU time of g++ and its children (getrusage of the
reaped children). Prints a markdown table: median, p90 and max over the
corpus, the slowest modules, and the load average around the run.

    /usr/bin/python3 bench/nativebench/compiletime.py TOOLCHAIN REPO [--every N] [--rows FILE.tsv]

Run by `go run ./bench/nativebench -only compile` (part of make bench).
"""
import argparse
import glob
import os
import resource
import sys
import tempfile
import time
import types


def corpus_units(repo):
    """(file, name, source) of every distinct unit the plan makes of the corpus files."""
    sys.modules.setdefault("_spine", types.ModuleType("_spine"))  # hot.py's crossing; never called here
    import hot
    files = sorted(glob.glob(os.path.join(repo, "tests/compiler/python/corpus*.py")))
    files += sorted(glob.glob(os.path.join(repo, "bench/nativebench/kernels/*.py")))
    units, seen = [], set()
    for path in files:
        with open(path) as f:
            plan = hot.plan(f.read(), set())
        for name, unit in plan.units.items():
            if unit.source not in seen:
                seen.add(unit.source)
                units.append((os.path.relpath(path, repo), name, unit.source))
    return units


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds):
    return f"{seconds * 1e3:.0f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("toolchain")
    parser.add_argument("repo")
    parser.add_argument("--every", type=int, default=1, help="compile every Nth unit (1: all)")
    parser.add_argument("--rows", help="also write every module's times (ms) to this TSV file")
    args = parser.parse_args()
    sys.path[:0] = [os.path.join(args.toolchain, "python"), os.path.join(args.repo, "guest")]
    start = time.process_time()
    import spine_compiler
    from native import compiler, service
    import_ms = (time.process_time() - start) * 1e3
    include = os.path.join(args.toolchain, "include")
    spine_compiler.include_path = include  # as service.main sets it up
    precompiled = compiler.use_precompiled(include, os.path.join(args.toolchain, "pch"))

    units = corpus_units(args.repo)[::args.every]
    load_before = os.getloadavg()
    rows, refused = [], 0
    with tempfile.TemporaryDirectory(prefix="spine-compiletime-") as tmp:
        tempfile.tempdir = tmp  # the service's files in the making, as the host's TMPDIR
        for i, (path, name, source) in enumerate(units):
            out = os.path.join(tmp, f"m{i}.so")
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu, wall = time.process_time(), time.perf_counter()
            response = service.handle({"id": i, "name": name, "source": source, "out": out})
            wall = time.perf_counter() - wall
            cpu = time.process_time() - cpu
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            gxx = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
            if not response["ok"]:
                refused += 1
                continue
            os.unlink(out)
            rows.append((cpu + gxx, gxx, cpu, wall, f"{path}: {name}"))
    load_after = os.getloadavg()
    if not rows:
        sys.exit("compiletime: no unit compiled")

    print(f"{len(rows)} modules compiled ({refused} refused by the frontend) of {len(units)} units "
          f"(every {args.every}. distinct unit of `tests/compiler/python/corpus*.py` and "
          f"`bench/nativebench/kernels/*.py`), one at a time. Load average before {load_before[0]:.1f}, "
          f"after {load_after[0]:.1f} (2 cores). Precompiled header: {'used' if precompiled else 'none'}. CPU: the service's frontend and C++ generation plus "
          f"g++ and its children; wall includes waiting for a core.\n")
    print("| per module | median | p90 | max |")
    print("| --- | ---: | ---: | ---: |")
    for label, column in (("CPU, total", 0), ("CPU, g++", 1), ("CPU, frontend and C++ generation", 2),
                          ("wall", 3)):
        values = [r[column] for r in rows]
        print(f"| {label} | {ms(quantile(values, 0.5))} | {ms(quantile(values, 0.9))} | {ms(max(values))} |")
    if args.rows:
        with open(args.rows, "w") as f:
            f.write("cpu_ms\tgxx_ms\tfrontend_ms\twall_ms\tmodule\n")
            for r in rows:
                f.write("\t".join(f"{v * 1e3:.1f}" for v in r[:4]) + f"\t{r[4]}\n")
    over = sum(1 for r in rows if r[0] >= 0.5)
    print(f"\nModules over 0.5 s of CPU: {over} of {len(rows)}. Importing the frontend (once per compile "
          f"service): {import_ms:.0f} ms of CPU. Slowest by CPU:\n")
    for r in sorted(rows, reverse=True)[:5]:
        print(f"- {r[4]}: {ms(r[0])} CPU, {ms(r[3])} wall")
    print()


if __name__ == "__main__":
    main()
