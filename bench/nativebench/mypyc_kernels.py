"""Times the benchmark kernels under CPython and as mypyc builds, in one
process: run by the venv's python (made from /usr/bin/python3, with mypy
from PyPI) that bench/nativebench/mypyc.sh prepares. Prints one JSON object:
kernel -> {"cpython": s, "mypyc": s, "answer": repr} or {"error": text}.

argv: the kernels' directory, then JSON [[module, entry, argument, reps], ...]."""
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def fastest(fn, arg, reps):
    best, answer = None, None
    for _ in range(reps):
        start = time.perf_counter()
        answer = fn(arg)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, answer


def main():
    kernels_dir, table = sys.argv[1], json.loads(sys.argv[2])
    work = tempfile.mkdtemp(prefix="spine-mypyc-")
    out = {}
    try:
        for module, entry, arg, reps in table:
            shutil.copy(os.path.join(kernels_dir, module + ".py"), work)
            spec = importlib.util.spec_from_file_location("cpython_" + module, os.path.join(work, module + ".py"))
            cpython = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(cpython)
            started = time.perf_counter()
            built = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mypyc"), module + ".py"],
                                   cwd=work, capture_output=True, text=True)
            build_seconds = time.perf_counter() - started
            if built.returncode != 0:
                out[module] = {"error": (built.stdout + built.stderr).strip().splitlines()[-1:]}
                continue
            sys.path.insert(0, work)
            try:
                compiled = importlib.import_module(module)
            finally:
                sys.path.remove(work)
            if not compiled.__file__.endswith(".so"):
                out[module] = {"error": f"mypyc did not build {module}: {compiled.__file__}"}
                continue
            py_s, py_answer = fastest(getattr(cpython, entry), arg, max(1, reps // 3))
            c_s, c_answer = fastest(getattr(compiled, entry), arg, reps)
            if repr(py_answer) != repr(c_answer):
                out[module] = {"error": f"mypyc answered {c_answer!r}, CPython {py_answer!r}"}
                continue
            out[module] = {"cpython": py_s, "mypyc": c_s, "answer": repr(c_answer), "build": build_seconds}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
