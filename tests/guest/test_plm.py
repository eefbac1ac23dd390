"""Tests of guest/plm.py: the transform's decisions, and plain vs PLM execution.

Run from the repository root:  PYTHONPATH=guest /usr/bin/python3 -m pytest -q tests/guest

Execution tests use `FakeHost`, a small Python stand-in for the Go host (a
test seam, not the product): `call` runs a tool synchronously, `prepare`
starts it on a thread and returns once the tool has started, `resolve` waits
for it and, like the real host, runs the request normally when the handle is
unknown or its request differs. `run_program` mirrors bootstrap's execute:
tools are keyword-only proxies, prepare_call/resolve_call are bound under the
names the transform chose, errors become "Type: message".
"""
import ast
import asyncio
import contextlib
import copy
import json
import os
import sys
import threading
import time
import warnings
from dataclasses import dataclass

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "guest"))
sys.path.insert(0, os.path.join(ROOT, "tests", "programs"))

import aio  # noqa: E402
import early  # noqa: E402
from plm import FAN_RUNTIME  # noqa: E402
from plm import transform  # noqa: E402
from protocol import encode_request  # noqa: E402
from corpus import load_corpus, load_manifest, parse_case  # noqa: E402

MANIFEST = load_manifest()
CORPUS = load_corpus()


# --- The fake host -------------------------------------------------------------

class ToolError(Exception):
    pass


def tool_echo(**args):
    return args


def tool_lookup(key=None, **_):
    if type(key) is not int:
        raise ToolError("lookup: key must be an integer")
    return 7 * key


def tool_sleep(ms=0, value=None, **_):
    time.sleep(ms / 1000)
    return value


def tool_fail(message="", **_):
    raise ToolError(message)


DEMO_TOOLS = {"echo": tool_echo, "lookup": tool_lookup, "sleep": tool_sleep, "fail": tool_fail}


class _Prepared:
    def __init__(self, request):
        self.request = request
        self.response = None
        self.started = threading.Event()
        self.thread = None


class FakeHost:
    """Tools plus the handle table of one execution.

    `log` is the program's visible effects in order: ("stdout", text) and
    ("emit", value). `starts` records every tool start as (name, args, early)
    in the order the tools started; `early` is True for a prepared call.
    """

    def __init__(self, manifest, tools=None):
        self.speculative = {s["name"] for s in manifest if s.get("speculative") is True}
        self.tools = dict(DEMO_TOOLS, **(tools or {}))
        self.tools["emit"] = self._emit
        self.lock = threading.Lock()
        self.log = []
        self.emitted = []
        self.starts = []
        self.handles = {}
        self.next_handle = 1
        self.violations = []
        self.hits = 0
        self.misses = 0
        self.resolves = []   # number of started tools at each resolve

    def _emit(self, value=None, **_):
        self.emitted.append(value)
        self.log.append(("emit", value))
        return len(self.emitted)

    def run(self, request, early=False, started=None):
        request = json.loads(request)
        name, args = request["tool"], request["args"]
        with self.lock:
            self.starts.append((name, args, early))
        if started is not None:
            started.set()
        try:
            value = self.tools[name](**args)
        except ToolError as error:
            return json.dumps({"error": str(error)})
        return json.dumps({"value": value})

    def call(self, request):
        return self.run(request)

    def prepare(self, request):
        parsed = json.loads(request)
        name, now = parsed["tool"], parsed.pop("now", False)
        # "now": the program's own call from async code, any tool may start so.
        if name not in self.speculative and not now:
            self.violations.append(f"prepared non-speculative {name}")
            return 0
        request = json.dumps(parsed)
        prepared = _Prepared(request)

        def work():
            prepared.response = self.run(request, early=not now, started=prepared.started)
        prepared.thread = threading.Thread(target=work, daemon=True)
        prepared.thread.start()
        prepared.started.wait()
        handle = self.next_handle
        self.next_handle += 1
        self.handles[handle] = prepared
        return handle

    def resolve(self, handle, request):
        with self.lock:
            self.resolves.append(len(self.starts))
        prepared = self.handles.pop(handle, None)
        if prepared is None or json.loads(prepared.request) != json.loads(request):
            self.misses += 1
            return self.run(request)
        prepared.thread.join()
        self.hits += 1
        return prepared.response

    def wait(self, request):
        """The async event loop's wait: the handles whose calls are done (at least one)."""
        handles = json.loads(request)["handles"]
        for handle in handles:
            prepared = self.handles.get(handle)
            if prepared is not None:
                prepared.thread.join()
                break
        return json.dumps({"done": [h for h in handles
                                    if h not in self.handles or not self.handles[h].thread.is_alive()]})

    def finish(self):
        """End of execution: unclaimed handles are discarded (threads joined here)."""
        for prepared in self.handles.values():
            prepared.thread.join()
        self.unclaimed = len(self.handles)
        self.handles.clear()


class _LogStream:
    def __init__(self, host):
        self.host = host

    def write(self, text):
        self.host.log.append(("stdout", text))
        return len(text)

    def flush(self):
        pass


@dataclass
class Outcome:
    value: object
    error: str
    stdout: str
    emitted: list
    log: list
    host: FakeHost
    helpers: tuple = ()
    transformed: str = ""


def _message(error):
    if isinstance(error, SyntaxError) and error.filename == "<spine>":
        return f"{type(error).__name__}: {error.msg}"
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def run_program(source, inputs=None, manifest=MANIFEST, plm=False, fanout=64, tools=None):
    host = FakeHost(manifest, tools)

    def decode(response):
        response = json.loads(response)
        if "error" in response:
            raise RuntimeError(response["error"])
        return response["value"]

    warmed = {}     # bootstrap's warm pool: request -> handles, first warmed first claimed

    def claim(request):
        handles = warmed.get(request)
        return handles.pop(0) if handles else None

    def make_tool(name):
        def proxy(**args):
            # bootstrap's rule: called from async code, a tool gives an awaitable.
            if aio.in_async_code(sys._getframe(1)):
                request = encode_request(name, args)

                async def awaiting():
                    return decode(host.call(request))
                return awaiting()
            request = encode_request(name, args)
            handle = claim(request)
            return decode(host.call(request) if handle is None else host.resolve(handle, request))
        proxy.__name__ = name
        return proxy

    def early_request(name, payload, names):
        try:
            args = early.arguments(payload, names())
            return None if args is None else encode_request(name, args)
        except BaseException:  # noqa: B036 - mirrors bootstrap (which lets only Interrupt pass)
            return None

    def prepare_call(name, payload, names):
        request = early_request(name, payload, names)
        if request is None:
            return 0
        handle = claim(request)
        return host.prepare(request) if handle is None else handle

    def warm_call(name, payload, names):
        request = early_request(name, payload, names)
        if request is not None:
            handle = host.prepare(request)
            if handle:
                warmed.setdefault(request, []).append(handle)
        return 0

    def resolve_call(handle, name, **args):
        return decode(host.resolve(handle, encode_request(name, args)))

    scope = {"__name__": "__main__", "inputs": copy.deepcopy(inputs or {})}
    for spec in manifest:
        scope[spec["name"]] = make_tool(spec["name"])
    value = error = None
    helpers, transformed = (), ""
    try:
        if plm:
            tree, helpers = transform(source, manifest, fanout=fanout)
            if helpers:
                scope.update(zip(helpers, (prepare_call, resolve_call, warm_call, *FAN_RUNTIME)))
                transformed = ast.unparse(tree)
        else:
            tree = source
        code = compile(tree, "<spine>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        with contextlib.redirect_stdout(_LogStream(host)), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a coroutine never awaited
            if code.co_flags & aio.CO_ASYNC:
                asyncio.run(eval(code, scope))
            else:
                exec(code, scope)
        value = json.loads(json.dumps(scope.get("result")))
    except BaseException as caught:  # noqa: B902 - mirrors bootstrap
        error = _message(caught)
    finally:
        host.finish()
    stdout = "".join(text for kind, text in host.log if kind == "stdout")
    return Outcome(value, error, stdout, host.emitted, host.log, host, helpers, transformed)


def both(source, **kwargs):
    """Run plain and PLM; assert they mean the same; return (plain, plm)."""
    plain = run_program(source, **kwargs)
    fast = run_program(source, plm=True, **kwargs)
    assert (fast.value, fast.error, fast.log) == (plain.value, plain.error, plain.log), fast.transformed
    assert fast.host.violations == []
    return plain, fast


def plm_text(source, manifest=MANIFEST, **kwargs):
    tree, helpers = transform(source, manifest, **kwargs)
    return ast.unparse(tree), helpers


def prepared_tools(text):
    """Tool names in the prepare thunks of a transformed text, in order."""
    tree = ast.parse(text)
    names = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id.endswith("_prepare") and isinstance(node.args[0], ast.Constant)):
            names.append(node.args[0].value)
    return names


def index_of(lines, needle):
    for number, line in enumerate(lines):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in:\n" + "\n".join(lines))


# --- The corpus ------------------------------------------------------------------

def test_corpus_is_big_enough_and_parses():
    assert len(CORPUS) >= 40
    assert len({c.name for c in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_corpus_plain_matches_expectation(case):
    out = run_program(case.source, case.inputs)
    assert (out.error, out.value, out.stdout, out.emitted) == (case.error, case.value, case.stdout, case.emitted)


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_corpus_plm_matches_plain(case):
    plain, fast = both(case.source, inputs=case.inputs)
    assert (fast.error, fast.value, fast.stdout, fast.emitted) == (case.error, case.value, case.stdout, case.emitted)


@pytest.mark.parametrize("fanout", [0, 1, 2])
def test_corpus_small_fanout(fanout):
    for case in CORPUS:
        out = run_program(case.source, case.inputs, plm=True, fanout=fanout)
        assert (out.error, out.value, out.stdout, out.emitted) == (
            case.error, case.value, case.stdout, case.emitted), case.name
        assert out.host.violations == []


def test_corpus_mostly_transformed_and_guesses_hit():
    transformed = hits = misses = 0
    for case in CORPUS:
        out = run_program(case.source, case.inputs, plm=True)
        transformed += bool(out.helpers)
        hits += out.host.hits
        misses += out.host.misses
    assert transformed >= len(CORPUS) // 2
    assert hits > 3 * misses


def test_corpus_header_parser(tmp_path):
    path = tmp_path / "x.py"
    path.write_text('# inputs: {"a": 1}\n# error: RuntimeError: lookup: key must be an integer\n'
                    '# emitted: [1]\nresult = 1\n', encoding="utf-8")
    case = parse_case(str(path))
    assert case.inputs == {"a": 1}
    assert case.error == "RuntimeError: lookup: key must be an integer"
    assert case.value is None and case.stdout == "" and case.emitted == [1]
    assert case.source.endswith("result = 1\n")
    path.write_text("# value: 1\n# error: X: y\n", encoding="utf-8")
    with pytest.raises(ValueError):
        parse_case(str(path))
    path.write_text("result = 1\n", encoding="utf-8")
    with pytest.raises(ValueError):
        parse_case(str(path))


# --- Decisions of the transform ----------------------------------------------------

def resolve_lines(text):
    return [n for n, line in enumerate(text.splitlines()) if "_resolve(" in line]


def prepare_lines(text):
    return [n for n, line in enumerate(text.splitlines()) if "_prepare(" in line]


def test_nothing_to_do_returns_plain_parse_and_no_helpers():
    for source in ["x = 1\n", "emit(value=1)\nemit(value=2)\n", "print(lookup)\n", ""]:
        tree, helpers = transform(source, MANIFEST)
        assert helpers == ()
        assert ast.dump(tree) == ast.dump(ast.parse(source))


def test_independent_calls_are_all_prepared_before_the_first_resolve():
    text, helpers = plm_text("a = lookup(key=1)\nb = lookup(key=2)\nc = echo(v=[1, 'x'])\nresult = [a, b, c]\n")
    assert helpers == ("_spine_prepare", "_spine_resolve")
    assert prepared_tools(text) == ["lookup", "lookup", "echo"]
    assert max(prepare_lines(text)) < min(resolve_lines(text))


def test_dependent_call_is_prepared_after_its_argument_is_bound():
    text, _ = plm_text("a = lookup(key=1)\nx = 5\nb = lookup(key=a)\nc = lookup(key=x)\n")
    lines = text.splitlines()
    first_a = index_of(lines, "a = _spine_resolve")
    assert index_of(lines, "{'key': a}") > first_a
    assert index_of(lines, "{'key': x}") < first_a or index_of(lines, "{'key': x}") > index_of(lines, "x = 5")
    assert index_of(lines, "{'key': x}") > index_of(lines, "x = 5")


def test_rebinding_between_prepare_point_and_call_moves_the_prepare_after_it():
    text, _ = plm_text("x = 1\na = lookup(key=x)\nx = 2\nb = lookup(key=x)\n")
    lines = text.splitlines()
    second = [n for n, line in enumerate(lines) if "{'key': x}" in line][1]
    assert second > index_of(lines, "x = 2")


def test_mutation_between_keeps_prepare_after_it():
    text, _ = plm_text("rows = [1]\na = lookup(key=1)\nrows.append(2)\nb = echo(rows=rows)\n")
    lines = text.splitlines()
    assert index_of(lines, "{'rows': rows}") > index_of(lines, "rows.append(2)")


@pytest.mark.parametrize("call", ["lookup(key=f(1))", "lookup(key=x.y)", "lookup(key=print('x'))",
                                  "lookup(key=[i for i in ()])", "lookup(key=(n := 1))", "echo(v=lambda: 1)",
                                  "lookup(key=inputs['a'].b)", "lookup(key=-f(1))", "lookup(key=map(f, xs))",
                                  "lookup(key=len(*xs))", "lookup(key=sorted(xs, key=f))", "lookup(key=next(g))",
                                  "lookup(key=xs.append(1))", "lookup(key=[x async for x in g])"])
def test_arguments_early_evaluation_cannot_compute_are_not_prepared(call):
    text, helpers = plm_text(f"x = n = 1\nxs = d = f = []\nr = {call}\n")
    assert prepared_tools(text) == []


@pytest.mark.parametrize("argument", ["n + 1", "d[0]", "d['k'][1:]", "f'{n}!'", "-n", "n if n else 2",
                                      "{1, n}", "{n: 1}", "2 ** 70", "n < 3 and n > 0", "2 ** n", "1 << n",
                                      "[*d]", "{**e}", "len(d)", "str(n)", "sorted(d, reverse=True)",
                                      "'a-b'.split('-')", "e.get('k', 0)", "n in d"])
def test_operators_subscripts_and_allowlisted_builtins_are_prepared(argument):
    text, _ = plm_text(f"n = 2\nd = [1]\ne = {{}}\nr = lookup(key={argument})\n")
    assert prepared_tools(text) == ["lookup"]


@pytest.mark.parametrize("argument", ["n + 1", "d[0]", "inputs['a']['b']", "math.pi"])
def test_imports_do_not_change_what_is_prepared(argument):
    # Early evaluation checks every operand's kind at run time, so a program
    # that imports is judged like any other (attributes are never evaluated).
    text, _ = plm_text(f"import math\nn = 2\nd = [1]\nr = lookup(key={argument})\n")
    assert prepared_tools(text) == ([] if argument == "math.pi" else ["lookup"])


def test_a_builtin_a_tool_shadows_is_not_evaluated_early():
    manifest = MANIFEST + [{"name": "len", "speculative": True}]
    text, _ = plm_text("r = lookup(key=len())\n", manifest)
    assert prepared_tools(text) == ["len"]


def test_a_builtin_the_program_binds_is_not_evaluated_early():
    text, _ = plm_text("def len(x):\n    return 0\nr = lookup(key=len([1]))\n")
    assert prepared_tools(text) == []


@pytest.mark.parametrize("binding", [
    "lookup = 1", "def lookup(key): return key", "import lookup", "from m import lookup",
    "import x as lookup", "for lookup in []: pass", "with c as lookup: pass",
    "try:\n    pass\nexcept E as lookup:\n    pass", "(lookup := 1)", "del lookup",
    "def f(lookup): pass", "lambda lookup: 1", "[1 for lookup in ()]",
    "def f():\n    global lookup", "match 1:\n    case lookup: pass", "match 1:\n    case {**lookup}: pass",
    "match 1:\n    case [*lookup]: pass", "lookup += 1", "lookup: int = 1", "def f():\n    lookup = 2",
])
def test_a_tool_name_bound_anywhere_is_never_rewritten(binding):
    source = f"a = echo(v=1)\n{binding}\nr = lookup(key=1)\n"
    text, _ = plm_text(source)
    assert "lookup" not in prepared_tools(text)
    assert "lookup(key=1)" in text


@pytest.mark.parametrize("source", [
    "g = globals()\nr = lookup(key=1)\n",
    "r = lookup(key=1)\nnames = dir()\n",
    "from os import *\nr = lookup(key=1)\n",
    "import sys\nf = sys._getframe()\nr = lookup(key=1)\n",
    "r = lookup(key=1)\nexec('x = 1')\n",
    "def f(): pass\nc = f.__code__\nr = lookup(key=1)\n",
])
def test_escape_hatches_into_namespaces_disable_the_transform(source):
    assert transform(source, MANIFEST)[1] == ()


def test_non_speculative_tools_are_never_prepared_nor_rewritten():
    source = "emit(value=1)\na = lookup(key=1)\nemit(value=a)\nfor i in range(3):\n    emit(value=i)\n"
    text, _ = plm_text(source)
    assert "emit" not in prepared_tools(text)
    assert text.count("emit(value=") == 3
    manifest = [dict(spec, speculative=False) if spec["name"] == "lookup" else spec for spec in MANIFEST]
    text, helpers = plm_text("a = lookup(key=1)\n", manifest)
    assert helpers == ()
    manifest = [{k: v for k, v in spec.items() if k != "speculative"} for spec in MANIFEST]
    assert plm_text("a = lookup(key=1)\n", manifest)[1] == ()


def test_positional_splat_and_resolve_parameter_keywords_are_left_alone():
    source = "a = lookup(1)\nb = lookup(**{'key': 1})\nc = echo(name='n')\nd = echo(handle=1)\n"
    assert transform(source, MANIFEST)[1] == ()


def test_helper_names_avoid_every_identifier_and_string_of_the_program():
    source = ("_spine_prepare = 1\nr = lookup(key=1)\n")
    text, helpers = plm_text(source)
    assert helpers == ("_spine1_prepare", "_spine1_resolve")
    source = ("x = '_spine1_h1'\ny = obj_spine_.attr if False else 0\n_spine_h = 2\nr = lookup(key=1)\n")
    text, helpers = plm_text(source)
    assert helpers == ("_spine2_prepare", "_spine2_resolve")
    original = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    generated = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)} - original
    assert generated and all(name.startswith("_spine2_") for name in generated - {"Exception"})


def test_original_line_numbers_are_preserved():
    source = "a = lookup(key=1)\n\nb = lookup(key=2)\nif a:\n    c = echo(v=b)\nfor k in [1, 2]:\n    d = lookup(key=k)\n"
    before = [(type(n).__name__, n.lineno, n.col_offset) for n in ast.walk(ast.parse(source))
              if isinstance(n, ast.stmt)]
    tree, _ = transform(source, MANIFEST)
    after = {(type(n).__name__, n.lineno, n.col_offset) for n in ast.walk(tree) if isinstance(n, ast.stmt)}
    assert set(before) <= after
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "_spine_resolve"]
    assert sorted(c.lineno for c in calls) == [1, 3, 5, 7]


def test_errors_are_reported_at_the_original_line():
    source = ("try:\n"
              "    a = lookup(key=1)\n"
              "    b = lookup(key=2)\n"
              "\n"
              "    c = lookup(key='x')\n"
              "except RuntimeError as e:\n"
              "    result = [str(e), e.__traceback__.tb_lineno]\n")
    plain, fast = both(source)
    assert "_spine_resolve" in fast.transformed
    assert fast.value == ["lookup: key must be an integer", 5]


def test_syntax_errors_are_raised():
    with pytest.raises(SyntaxError):
        transform("x = (\n", MANIFEST)
    # A repeated keyword is the compiler's error: the transformed tree gives the same one.
    source = "a = lookup(key=1)\nb = lookup(key=1, key=2)\n"
    with pytest.raises(SyntaxError) as plain:
        compile(source, "<spine>", "exec")
    with pytest.raises(SyntaxError) as fast:
        compile(transform(source, MANIFEST)[0], "<spine>", "exec")
    assert (fast.value.msg, fast.value.lineno) == (plain.value.msg, plain.value.lineno)


def test_fanout_must_be_a_non_negative_int():
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError):
            transform("x = 1\n", MANIFEST, fanout=bad)


def test_docstrings_and_future_imports_stay_first():
    source = '"""Doc."""\nfrom __future__ import annotations\nr = lookup(key=1)\ndef f():\n    """F."""\n    return lookup(key=2)\n'
    tree, helpers = transform(source, MANIFEST)
    assert helpers
    assert ast.get_docstring(tree) == "Doc."
    assert isinstance(tree.body[1], ast.ImportFrom)
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    assert ast.get_docstring(func) == "F."
    compile(tree, "<spine>", "exec")


def test_calls_in_comprehensions_lambdas_defaults_while_tests_and_async_are_left_alone():
    source = ("f = lambda: lookup(key=1)\n"
              "def g(x=lookup(key=2)):\n    return x\n"
              "while lookup(key=3) < 0:\n    pass\n"
              "async def h():\n    return lookup(key=4)\n")
    assert transform(source, MANIFEST)[1] == ()


def test_while_body_calls_are_prepared_inside_the_body():
    text, _ = plm_text("i = 0\nwhile i < 2:\n    a = lookup(key=i)\n    b = lookup(key=7)\n    i += 1\n")
    lines = text.splitlines()
    assert all(n > index_of(lines, "while") for n in prepare_lines(text))


def test_walrus_and_volatile_names_are_not_prepared():
    text, _ = plm_text("r = lookup(key=(n := 1)) + lookup(key=n)\n")
    assert prepared_tools(text) == []
    text, _ = plm_text("x = 1\ndef f():\n    global x\n    x = 2\nf()\nr = lookup(key=x)\n")
    assert prepared_tools(text) == []


def test_a_branch_call_leaves_the_branch_only_when_that_overlaps_a_call():
    text, _ = plm_text("if inputs['f']:\n    r = lookup(key=1)\n")
    lines = text.splitlines()
    assert prepare_lines(text)[0] > index_of(lines, "if inputs")
    text, _ = plm_text("a = sleep(ms=1)\nif inputs['f']:\n    r = lookup(key=1)\n")
    lines = text.splitlines()
    assert prepare_lines(text)[1] < index_of(lines, "if inputs")
    text, _ = plm_text("a = sleep(ms=1)\ntry:\n    r = fail(message='m')\nexcept RuntimeError:\n    pass\n")
    lines = text.splitlines()
    assert prepare_lines(text)[1] < index_of(lines, "a = _spine_resolve")


def test_hoisting_out_of_a_branch_stops_at_a_binding_header():
    text, _ = plm_text("a = sleep(ms=1)\nif (k := 3):\n    r = lookup(key=k)\n")
    lines = text.splitlines()
    assert prepare_lines(text)[-1] > index_of(lines, "if (k := 3)")


# --- Fan-out ---------------------------------------------------------------------

def early_starts(out, name=None):
    return [s for s in out.host.starts if s[2] and (name is None or s[0] == name)]


@pytest.mark.parametrize("iterable", ["[1, 2, 3]", "(1, 2, 3)", "range(1, 4)", "keys"])
def test_fanout_prepares_every_iteration_before_the_loop(iterable):
    source = f"keys = [1, 2, 3]\nrows = []\nfor k in {iterable}:\n    rows.append(lookup(key=k))\nresult = rows\n"
    plain, fast = both(source)
    assert fast.value == [7, 14, 21]
    assert [s[1]["key"] for s in early_starts(fast)] == [1, 2, 3]
    assert fast.host.resolves[0] == 3  # all three had started when the first was claimed
    assert fast.host.hits == 3 and fast.host.misses == 0


def test_fanout_is_bounded():
    source = "t = 0\nfor i in range(100):\n    t += lookup(key=i)\nresult = t\n"
    for fanout, before_first in [(64, 64), (10, 10), (200, 100)]:
        plain, fast = both(source, fanout=fanout)
        assert fast.host.resolves[0] == before_first, fanout
        assert fast.host.hits + fast.host.misses == 100
    # No fan-out: a prepare right before each call would gain nothing.
    plain, fast = both(source, fanout=0)
    assert fast.host.resolves == [] and early_starts(fast) == []
    text, _ = plm_text(source, fanout=7)
    assert "[:7]" in text


def test_fanout_with_loop_invariant_names_and_break():
    source = ("base = 100\nfor i in range(10):\n    v = lookup(key=base + i)\n"
              "    if v > 710:\n        break\nresult = [i, v]\n")
    plain, fast = both(source)
    assert fast.value == [2, 714]
    assert len(early_starts(fast)) == 10 and fast.host.hits == 3 and fast.host.unclaimed == 7


@pytest.mark.parametrize("body", ["    i = i + 1\n    y = lookup(key=i)\n",
                                  "    n += 1\n    y = lookup(key=n)\n",
                                  "    i.append(1)\n    y = echo(v=i)\n"])
def test_no_fanout_for_arguments_that_vary_inside_the_body(body):
    text, _ = plm_text("n = 0\nfor i in [[1], [2]]:\n" + body)
    assert "enumerate" not in text
    both("n = 0\nfor i in [[1], [2]]:\n" + body)


def test_fanout_keeps_the_dependent_call_of_the_body_local():
    text, _ = plm_text("for i in [1, 2]:\n    x = lookup(key=i)\n    z = str(i)\n    y = lookup(key=x + 1)\n")
    assert "enumerate" in text
    body = text.split("for ")[-1]
    assert "{'key': x + 1}" in body and "{'key': i}" not in body
    # With nothing between it and its call, the dependent call stays plain.
    text, _ = plm_text("for i in [1, 2]:\n    x = lookup(key=i)\n    y = lookup(key=x + 1)\n")
    body = text.split("for ")[-1]
    assert "y = lookup(key=x + 1)" in body and "{'key': i}" not in body


def test_annotations_are_left_alone():
    source = "from __future__ import annotations\nx: lookup(key=1) = lookup(key=2)\nresult = __annotations__\n"
    plain, fast = both(source)
    assert fast.value == {"x": "lookup(key=1)"}


@pytest.mark.parametrize("iterable", ["xs", "f()", "[f()]", "range(len(q))", "[*q]"])
def test_other_iterables_fan_out_when_the_loop_starts(iterable):
    # Not known statically: the iterable is evaluated once, where the plain
    # program does, and the fan-out is decided from its value.
    source = f"q = [1]\nxs = [1]\nxs = [2]\ndef f():\n    return [1]\nfor k in {iterable}:\n    r = lookup(key=k)\n"
    text, _ = plm_text(source)
    assert "[:64]" not in text and "_spine_fan_table(lambda" in text
    plain, fast = both(source)
    assert len(early_starts(fast)) == 1 and fast.host.hits == 1


def test_no_fanout_when_the_generated_code_builtins_are_shadowed():
    text, _ = plm_text("enumerate = 1\nfor k in [1]:\n    r = lookup(key=k)\n")
    assert "_spine_it" not in text


def test_zero_trip_loops():
    both("for k in []:\n    r = fail(message='x')\nfor k in range(0):\n    r = fail(message='y')\nresult = 1\n")


# --- Execution: meaning and concurrency ---------------------------------------------

def test_independent_sleeps_run_concurrently():
    barrier = threading.Barrier(3, timeout=10)

    def rendezvous(ms=0, value=None):
        barrier.wait()  # only passes if all three sleeps are running at once
        time.sleep(ms / 1000)
        return value

    source = "a = sleep(ms=100, value=1)\nb = sleep(ms=100, value=2)\nc = sleep(ms=100, value=3)\nresult = [a, b, c]\n"
    fast = run_program(source, plm=True, tools={"sleep": rendezvous})
    assert fast.error is None and fast.value == [1, 2, 3]
    assert [s[2] for s in fast.host.starts] == [True, True, True]
    assert fast.host.resolves == [3, 3, 3]


def test_plain_sleeps_are_sequential_and_start_in_program_order():
    plain = run_program("a = sleep(ms=1, value=1)\nb = lookup(key=2)\nc = echo(v=3)\n")
    assert [s[0] for s in plain.host.starts] == ["sleep", "lookup", "echo"]
    fast = run_program("a = sleep(ms=1, value=1)\nb = lookup(key=2)\nc = echo(v=3)\n", plm=True)
    assert [s[0] for s in fast.host.starts] == ["sleep", "lookup", "echo"]


def test_emit_runs_exactly_when_the_plain_program_runs_it():
    source = ("a = sleep(ms=5, value='a')\nemit(value=a)\nprint('p')\n"
              "for i in range(3):\n    emit(value=lookup(key=i))\n"
              "if a == 'b':\n    emit(value='never')\nresult = emit(value='last')\n")
    plain, fast = both(source)
    assert fast.emitted == ["a", 0, 7, 14, "last"] and fast.value == 5
    assert fast.log == plain.log
    assert all(s[0] != "emit" for s in early_starts(fast))


def test_tool_errors_and_argument_errors_are_raised_at_the_call_site():
    source = ("emit(value=1)\nx = lookup(key='bad')\nemit(value=2)\n")
    plain, fast = both(source)
    assert fast.error == "RuntimeError: lookup: key must be an integer" and fast.emitted == [1]
    plain, fast = both("emit(value=1)\nx = lookup(key=nope)\n")
    assert fast.error == "NameError: name 'nope' is not defined" and fast.emitted == [1]
    plain, fast = both("r = echo(v=1)\nx = echo(v=float('nan'))\n")
    assert fast.error.startswith("ValueError")


def test_a_failing_prepare_never_changes_the_program():
    source = "a = lookup(key=1)\nfor i in [1, 2]:\n    b = lookup(key=i)\nresult = [a, b]\n"
    tree, helpers = transform(source, MANIFEST)
    host = FakeHost(MANIFEST)

    def prepare_raises(*_):
        raise RecursionError("maximum recursion depth exceeded")

    def resolve_call(handle, name, **args):
        assert handle == 0
        return json.loads(host.call(encode_request(name, args)))["value"]

    scope = {"lookup": None}
    scope.update(zip(helpers, (prepare_raises, resolve_call)))
    exec(compile(tree, "<spine>", "exec"), scope)
    assert scope["result"] == [7, 14]


def test_the_transform_does_not_run_user_code():
    source = "print('side effect')\nimport os\nr = lookup(key=1)\nraise SystemExit(3)\n"
    out = io_capture(lambda: transform(source, MANIFEST))
    assert out == ""


def io_capture(fn):
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        fn()
    return buffer.getvalue()


def test_unparsed_transform_compiles_to_the_same_behaviour():
    # bootstrap compiles the tree, and shows ast.unparse(tree): the text must mean the same.
    for case in CORPUS:
        tree, helpers = transform(case.source, MANIFEST)
        if helpers:
            compile(ast.unparse(tree), "<spine>", "exec")
            again, _ = transform(ast.unparse(tree), MANIFEST)
            compile(again, "<spine>", "exec")


# --- Through the real bootstrap -------------------------------------------------------

_BOOTSTRAP_DRIVER = r'''
import json, sys, types
sys.path[:0] = [sys.argv[1], sys.argv[2], sys.argv[3]]
import test_plm as T
from corpus import load_corpus, load_manifest

state = {}
fake = types.ModuleType("_spine")
class Interrupt(BaseException):
    pass
fake.Interrupt = Interrupt
fake.call = lambda request: state["host"].call(request)
fake.prepare = lambda request: state["host"].prepare(request)
fake.resolve = lambda handle, request: state["host"].resolve(handle, request)
fake.program_loop = lambda on: None
fake.wait = lambda request: state["host"].wait(request)
fake.current = lambda: 0
fake.adopt = lambda token: None
sys.modules["_spine"] = fake
import bootstrap

manifest = load_manifest()
report = []
for case in load_corpus():
    for plm in (False, True):
        host = state["host"] = T.FakeHost(manifest)
        request = {"source": case.source, "inputs": case.inputs, "manifest": manifest, "plm": plm}
        response = json.loads(bootstrap.execute(json.dumps(request)))
        stdout, _ = bootstrap.take_output()
        host.finish()
        report.append({"name": case.name, "plm": plm, "value": response.get("value"),
                       "error": response.get("error"), "stdout": stdout.decode("utf-8"),
                       "emitted": host.emitted, "violations": host.violations,
                       "transformed": bool(response.get("transformed"))})
print(json.dumps(report))
'''


def test_corpus_through_bootstrap_with_a_fake_spine_module():
    """bootstrap.execute (the real prepare_call/resolve_call) over a fake `_spine`, in a subprocess."""
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run(
        [sys.executable, "-c", _BOOTSTRAP_DRIVER, os.path.join(ROOT, "guest"), here,
         os.path.join(ROOT, "tests", "programs")],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    expected = {case.name: case for case in CORPUS}
    assert len(report) == 2 * len(CORPUS)
    for entry in report:
        case = expected[entry["name"]]
        assert (entry["error"], entry["value"], entry["stdout"], entry["emitted"]) == (
            case.error, case.value if case.error is None else None, case.stdout, case.emitted), entry
        assert entry["violations"] == []
    assert sum(entry["transformed"] for entry in report if entry["plm"]) >= len(CORPUS) // 2


def test_a_call_with_nothing_to_overlap_in_a_loop_or_function_body_stays_plain():
    # A prepare right before its own call would only add a crossing per run.
    for source in ("x = 1\nfor i in range(3):\n    x = lookup(key=x)\nresult = x\n",
                   "def f(k):\n    return lookup(key=k) + 1\nresult = f(1) + f(2)\n",
                   "n = 0\nwhile n < 3:\n    n = lookup(key=n) // 7 + 1\nresult = n\n"):
        text, helpers = plm_text(source)
        assert helpers == (), text
        plain, fast = both(source)
        assert fast.host.resolves == [] and early_starts(fast) == []
