"""Run corpus programs with this CPython, as spine runs them, and print
what each did as one line of JSON: {"name": its path, "value": <the
program's `result`>, "stdout": text, "error": exception type name or null}.

The program runs as `__main__` with `inputs` ({}) defined, compiled so that
top-level `await` works (the coroutine is then run with asyncio.run), in a
fresh temporary working directory, in a process of its own forked from
this one (no program sees another's module state, and none pays for an
interpreter's start). corpus_test.go compares this with what spine gives
in each isolation mode; it never runs spine.
"""
import ast
import asyncio
import contextlib
import io
import json
import os
import sys
import tempfile


def run(path, out_fd):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    scope = {"__name__": "__main__", "inputs": {}}
    out = io.StringIO()
    error = None
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            code = compile(source, "<spine>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
            with contextlib.redirect_stdout(out):
                coroutine = eval(code, scope)
                if coroutine is not None:
                    asyncio.run(coroutine)
        except BaseException as e:  # the program's own uncaught exception
            error = type(e).__name__
        finally:
            os.chdir("/")
    try:
        value = json.dumps(scope.get("result"), allow_nan=False)
    except (TypeError, ValueError) as e:
        value, error = "null", error or type(e).__name__
    line = '{"name": %s, "value": %s, "stdout": %s, "error": %s}\n' % (
        json.dumps(path), value, json.dumps(out.getvalue()), json.dumps(error))
    os.write(out_fd, line.encode())


def main(paths):
    for path in paths:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            try:
                run(path, write_end)
            finally:
                os._exit(0)
        os.close(write_end)
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        os.close(read_end)
        os.waitpid(pid, 0)
        sys.stdout.buffer.write(b"".join(chunks) or b'{"name": %s, "crashed": true}\n' % json.dumps(path).encode())
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
