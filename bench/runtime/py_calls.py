"""Python-side call comparisons for bench/runtime/run.sh.

Measures, in one process and one run: a call into the runtime registry
through spine_runtime (positional and keyword), a plain CPython function
call, and a ctypes call of an equivalent C function. Prints one JSON object
per line: {"name", "ns_per_op"}.

Usage: python3 py_calls.py <dir with spine_runtime and libruntime_bench_ctypes.so>
"""
import ctypes
import json
import os
import sys
import timeit


def best_ns(stmt, env, number=200_000, repeat=7):
    # min over repeats: the least-disturbed estimate on a shared machine
    times = timeit.repeat(stmt, globals=env, number=number, repeat=repeat)
    return min(times) / number * 1e9


def main():
    libdir = sys.argv[1]
    sys.path.insert(0, libdir)
    import spine_runtime

    lib = ctypes.CDLL(os.path.join(libdir, "libruntime_bench_ctypes.so"))
    c_add = lib.spine_bench_add
    c_add.argtypes = [ctypes.c_int64, ctypes.c_int64]
    c_add.restype = ctypes.c_int64

    def py_add(a, b):
        return a + b

    env = {
        "spine_add": spine_runtime.get_global("testing.add"),
        "spine_add4": spine_runtime.get_global("testing.add4"),
        "py_add": py_add,
        "c_add": c_add,
    }
    assert env["spine_add"](a=1, b=2) == py_add(a=1, b=2) == c_add(1, 2) == 3
    cases = [
        ("python: plain function, positional", "py_add(1, 2)"),
        ("python: plain function, keywords", "py_add(a=1, b=2)"),
        ("python: ctypes C function, positional", "c_add(1, 2)"),
        ("python: spine_runtime testing.add, positional", "spine_add(1, 2)"),
        ("python: spine_runtime testing.add, keywords", "spine_add(a=1, b=2)"),
        ("python: spine_runtime testing.add4, 2 pos + 2 kw, 4 results", "spine_add4(1, 2, c=3, d=4)"),
    ]
    for name, stmt in cases:
        print(json.dumps({"name": name, "ns_per_op": best_ns(stmt, env)}))


if __name__ == "__main__":
    main()
