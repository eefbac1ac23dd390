"""The compile service: a trusted helper process of the host, never part of a
sandboxed child. The host starts it as

    /usr/bin/python3 -I -S -c '...; from native.service import main; main()' PYTHON_DIR INCLUDE_DIR

and sends one JSON request per line on stdin:

    {"id": 7, "name": "fib", "source": "def fib(n: int) -> int: ...", "out": "/cache/modules/KEY.so",
     "keep_source": "/cache/private/KEY.cc"}

It answers one JSON line on stdout:

    {"id": 7, "ok": true, "functions": ["fib"], "ms": 180.5}
    {"id": 7, "ok": false, "kind": "unsupported", "line": 3, "col": 11, "construct": "Call", "message": "..."}

``kind`` is ``unsupported`` (the frontend rejects the source: it stays
Python), ``compiler`` (g++ failed) or ``invalid`` (the request itself is
wrong). The source is untrusted: it is parsed and lowered, never executed,
and only the generated C++ reaches g++. Outputs are written under private
names in ``$TMPDIR`` (the host gives each service its own, on the file system
of ``out``, and removes it with the service) and renamed into place, so a
reader never sees a half-written module, concurrent services may build the
same key, and a killed compilation leaves nothing where modules are read.
The generated C++ is kept at ``keep_source`` when given (the host keeps it
where no sandboxed child can read it), otherwise dropped.

The host runs the service as the leader of its own process group, which g++
and its children inherit, and kills the group to cancel a compilation. The
service dies with the host (a parent-death signal); its watchdog, forked
first, then kills whatever of the group is left, so a host killed with
SIGKILL leaves no compiler running.
"""
import ast
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time

import spine_compiler

from . import irbuilder as ir
from .compiler import compiler_command, exported_names, parse_module, use_precompiled
from .errors import CompileError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
COMPILE_SECONDS = 60
OUTPUT_BYTES = 256 << 20
MESSAGE_CHARS = 2000


def _limit_compiler():
    # Runs in the g++ child before exec: bounded CPU, output size, no core.
    resource.setrlimit(resource.RLIMIT_CPU, (COMPILE_SECONDS, COMPILE_SECONDS + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_BYTES, OUTPUT_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _clip(text):
    text = text.strip()
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + "..."


def _private(suffix):
    fd, path = tempfile.mkstemp(prefix=".tmp-", suffix=suffix)
    os.close(fd)
    return path


def _absolute(path, suffix, what):
    if not isinstance(path, str) or not os.path.isabs(path) or not path.endswith(suffix):
        raise ValueError(f"{what} must be an absolute path ending in {suffix}")


def build(name, source, out, keep_source=None):
    """Lower @p source, generate C++, build it into @p out; returns the function names.
    Raises CompileError (unsupported), RuntimeError (g++ failed) or ValueError (bad request)."""
    if not _IDENT.match(name):
        raise ValueError(f"function name {name!r} is not an ASCII identifier")
    _absolute(out, ".so", "out")
    if keep_source is not None:
        _absolute(keep_source, ".cc", "keep_source")
    kept = {}  # closure factories that stay Python for Python callers, and why
    funcs = parse_module(source, kept)
    names = [ir.fn("runtime.NodeGetAttr")(f, "name") for f in funcs]
    exported = exported_names(funcs)
    if name not in names and name not in exported and name not in kept:
        raise ValueError(f"the source does not define {name}()")
    if name not in exported:
        # A native-only helper (a class in its signature, a closure that cannot cross) has no
        # entry Python could load: refused here, before g++ spends time on it.
        raise CompileError(_definition(source, name), "Signature", kept.get(name) or
                           f"{name}() takes or returns values that cannot cross into Python "
                           "(class instances)")
    cpp = ir.fn("rewriter.BuildFunctions")(funcs)
    cc, so = _private(".cc"), _private(".so")
    try:
        with open(cc, "w") as f:
            f.write(cpp)
        try:
            r = subprocess.run(compiler_command(cc, so), capture_output=True, text=True, stdin=subprocess.DEVNULL,
                               timeout=COMPILE_SECONDS, preexec_fn=_limit_compiler)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"C++ compilation took longer than {COMPILE_SECONDS} s") from None
        if r.returncode != 0:
            raise RuntimeError("C++ compilation failed: " + _clip(r.stderr))
        os.chmod(so, 0o755)
        os.replace(so, out)
        if keep_source is not None:
            os.replace(cc, keep_source)  # for whoever debugs it, where no child reads it
    finally:
        for path in (cc, so):
            if os.path.exists(path):
                os.unlink(path)
    return names


def _definition(source, name):
    """The `def` of @p name in @p source (for the line of a refusal)."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def handle(request):
    """One request (a dict) -> one response (a dict)."""
    rid = request.get("id") if isinstance(request, dict) else None
    start = time.perf_counter()
    try:
        if not isinstance(request, dict) or not all(isinstance(request.get(k), str) for k in ("name", "source", "out")):
            raise ValueError("a request needs the strings name, source and out")
        names = build(request["name"], request["source"], request["out"], request.get("keep_source"))
        return {"id": rid, "ok": True, "functions": names, "ms": (time.perf_counter() - start) * 1e3}
    except CompileError as e:
        text = str(e)
        prefix = f"line {e.line}, column {e.col}: {e.construct}: "
        return {"id": rid, "ok": False, "kind": "unsupported", "line": e.line, "col": e.col,
                "construct": e.construct, "message": text[len(prefix):] if text.startswith(prefix) else text}
    except SyntaxError as e:
        return {"id": rid, "ok": False, "kind": "unsupported", "line": e.lineno or 0, "col": e.offset or 0,
                "construct": "SyntaxError", "message": _clip(e.msg or "invalid syntax")}
    except RuntimeError as e:
        return {"id": rid, "ok": False, "kind": "compiler", "message": _clip(str(e))}
    except (ValueError, TypeError, KeyError, RecursionError, MemoryError) as e:
        # The registry raises ValueError/TypeError for ASTs it refuses to build.
        return {"id": rid, "ok": False, "kind": "invalid", "message": _clip(f"{type(e).__name__}: {e}")}


def _watchdog():
    """Fork a process that kills the service's process group once the
    service is gone, however it went (the host's death kills the service by
    its parent-death signal, which g++ and its children do not get). It
    waits for the end of a pipe only the service holds open, so it needs no
    signal and no polling, and it holds none of the service's pipes to the
    host. Without its own group (started by hand) the service has none."""
    if os.getpgrp() != os.getpid():
        return
    r, w = os.pipe()
    if os.fork() == 0:
        try:
            os.close(w)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            while os.read(r, 1):
                pass
        finally:
            os.killpg(0, signal.SIGKILL)
            os._exit(0)
    os.close(r)
    _watchdog.pipe = w  # held for the service's life, never inherited (O_CLOEXEC)


def main():
    _watchdog()
    python_dir, include_dir = sys.argv[1], sys.argv[2]
    del python_dir  # already on sys.path (the launcher put it there)
    spine_compiler.include_path = include_dir
    use_precompiled(include_dir, os.path.join(os.path.dirname(include_dir), "pch"))
    # A pathological source must not take the host's memory with it.
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.setrecursionlimit(3000)
    out = sys.stdout
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError as e:
            request = None
            response = {"id": None, "ok": False, "kind": "invalid", "message": f"malformed request: {e}"}
        else:
            response = handle(request)
        out.write(json.dumps(response) + "\n")
        out.flush()
