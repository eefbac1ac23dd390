"""Boxed values called from Python: native against CPython, same run. The data
behind guest/hot.py's rule (a function taking or returning boxed values in
containers keeps CPython's version for Python callers; one taking a single
boxed value, or boxing only its own locals, goes native).

Each function is compiled with native.simple_compile, then called from Python
natively and as CPython's function; per call: the least CPU time (getrusage)
over 5 rounds of `reps` calls, the two interleaved. Prints a markdown table.

    PYTHONPATH=build/runtime/python:guest /usr/bin/python3 bench/nativebench/boxedcost.py
"""
import os
import resource
import tempfile

from native import module_loader, simple_compile

SOURCE = '''
from typing import Any, Dict, List
def narrow_total(xs: list) -> int:
    s = 0
    for x in xs:
        if isinstance(x, int):
            s += x
    return s
def typed_total(xs: List[int]) -> int:
    s = 0
    for x in xs:
        s += x
    return s
def count_ok(records: List[Dict[str, Any]]) -> int:
    n = 0
    for r in records:
        if r.get("status") == "ok":
            n += 1
    return n
def total_field(records: List[Dict[str, Any]], key: str) -> int:
    t = 0
    for r in records:
        v = r.get(key, 0)
        if isinstance(v, int):
            t += v
    return t
def evens_boxed(n: int) -> list:
    return [i * 2 for i in range(n)]
def evens_typed(n: int) -> List[int]:
    return [i * 2 for i in range(n)]
def add_any(a: Any, b: Any) -> Any:
    return a + b
def add_int(a: int, b: int) -> int:
    return a + b
def collatz_any(x: Any) -> int:
    if isinstance(x, int):
        steps = 0
        for start in range(1, x):
            m = start
            while m != 1:
                m = m // 2 if m % 2 == 0 else 3 * m + 1
                steps += 1
        return steps
    return -1
def own_list(n: int) -> int:
    seen: list = []
    for i in range(n):
        seen.append(i * 2)
    t = 0
    for v in seen:
        if isinstance(v, int):
            t += v
    return t
'''

INTS = list(range(100_000))
RECORDS = [{"id": i, "status": "ok" if i % 3 else "fail", "n": i} for i in range(20_000)]
CASES = [  # (what, function, arguments, calls per round)
    ("bare `list` parameter, 100k ints narrowed once each", "narrow_total", (INTS,), 20),
    ("`List[int]` parameter, the same sum", "typed_total", (INTS,), 20),
    ("`List[Dict[str, Any]]`: count 20k records' status", "count_ok", (RECORDS,), 20),
    ("`List[Dict[str, Any]]`: total a field of 20k records", "total_field", (RECORDS, "n"), 20),
    ("returns a bare `list` of 10k ints", "evens_boxed", (10_000,), 50),
    ("returns `List[int]`, the same 10k ints", "evens_typed", (10_000,), 50),
    ("`add(a: Any, b: Any)` on two ints", "add_any", (3, 4), 20_000),
    ("`add(a: int, b: int)`", "add_int", (3, 4), 20_000),
    ("`Any` narrowed to an int, then Collatz lengths below 3000", "collatz_any", (3000,), 20),
    ("a bare `list` local: fill and sum 10k ints", "own_list", (10_000,), 50),
]


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def per_call(f, args, reps):
    start = cpu()
    for _ in range(reps):
        f(*args)
    return (cpu() - start) / reps


def main():
    scope = {}
    exec(SOURCE, scope)
    path = os.path.join(tempfile.mkdtemp(), "boxedcost.so")
    simple_compile(SOURCE, path)
    module = module_loader(path)
    print("| function (called from Python) | CPython | native | native/CPython speed |")
    print("| --- | ---: | ---: | ---: |")
    for what, name, args, reps in CASES:
        python = scope[name]
        native = module.get_function(name, fallback=python)
        assert native(*args) == python(*args), name
        best = {"python": float("inf"), "native": float("inf")}
        for _ in range(5):
            for which, f in (("python", python), ("native", native)):
                best[which] = min(best[which], per_call(f, args, reps))
        assert native.fallbacks == 0, name
        print(f"| {what} | {best['python'] * 1e6:.2f} µs | {best['native'] * 1e6:.2f} µs | "
              f"{best['python'] / best['native']:.2f}x |")
    print(f"\nload average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
