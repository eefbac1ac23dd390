"""Effects order reads: PLM placement and prefix streaming decisions.

With `put` effectful and `get` speculative, `put(value=1); result = get()`
must read 1: a speculative call never starts before an effectful call the
plain program runs before it has completed. Tools may say what they touch
(manifest "reads"/"writes"), so a read of the calendar is not held back by a
write to the store.

Run from the repository root:
    PYTHONPATH=guest /usr/bin/python3 -m pytest -q tests/guest/test_effects.py
"""
import ast
import json

from effects import EVERYTHING, NOTHING, ProgramEffects, ToolEffects, conflict
from plm import transform
from prefix import Prefix

MANIFEST = [
    {"name": "put", "writes": ["kv"]},
    {"name": "get", "speculative": True, "reads": ["kv"]},
    {"name": "calendar", "speculative": True, "reads": ["calendar"]},
    {"name": "pure", "speculative": True, "reads": []},
    {"name": "send"},                                    # writes everything
    {"name": "anything", "speculative": True},           # reads everything
]


# --- the resource rule -----------------------------------------------------------

def test_missing_lists_mean_everything_and_empty_lists_nothing():
    tools = ToolEffects(MANIFEST)
    assert tools.writes["send"] == EVERYTHING and tools.reads["anything"] == EVERYTHING
    assert tools.reads["pure"] == NOTHING
    assert conflict(tools.reads["get"], tools.writes["put"])
    assert not conflict(tools.reads["calendar"], tools.writes["put"])
    assert conflict(tools.reads["calendar"], tools.writes["send"])
    assert conflict(tools.reads["anything"], tools.writes["put"])
    assert not conflict(tools.reads["pure"], tools.writes["send"])
    malformed = ToolEffects([{"name": "r", "speculative": True, "reads": "kv"}, {"name": "w", "writes": [1]}])
    assert malformed.reads["r"] == EVERYTHING and malformed.writes["w"] == EVERYTHING


def writes_of(src, callee):
    effects = ProgramEffects(ToolEffects(MANIFEST))
    tree = ast.parse(src)
    effects.add(tree)
    return effects.callee_writes(callee)


def test_functions_reach_effects_through_calls_escapes_and_lambdas():
    assert writes_of("def save():\n    put(value=1)\n", "save") == {"kv"}
    assert writes_of("def a():\n    b()\ndef b():\n    put(value=1)\n", "a") == {"kv"}       # to a fixed point
    assert writes_of("def rec():\n    rec()\n", "rec") == NOTHING                             # recursion ends
    assert writes_of("def show(x):\n    print(x)\n", "show") == NOTHING
    # Nothing escaped: a method or a builtin cannot reach a tool.
    assert writes_of("x = 1\n", "sorted") == NOTHING
    # `put` handed to other code: any unknown call may now write what it writes.
    assert writes_of("f = put\n", "sorted") == {"kv"}
    assert writes_of("go = lambda: put(value=1)\n", "sorted") == {"kv"}
    assert writes_of("def cb():\n    put(value=1)\nsorted([1], key=cb)\n", "len") == {"kv"}
    # A parameter is anything: calling it may reach what escaped.
    assert writes_of("def apply(fn):\n    fn()\napply(put)\n", "apply") == {"kv"}


def test_methods_escape_and_may_write_at_any_operation():
    source = "class Store:\n    def save(self):\n        put(value=1)\n    def show(self):\n        return 1\n"
    effects = ProgramEffects(ToolEffects(MANIFEST))
    effects.add(ast.parse(source))
    # `obj.save()` is a method call: an unknown callee, which may reach a method.
    assert effects.escaped == {"kv"}
    # An operator, `len`, iteration... may run a method (a dunder): anywhere.
    assert effects.class_writes == {"kv"}
    quiet = ProgramEffects(ToolEffects(MANIFEST))
    quiet.add(ast.parse("class Quiet:\n    def show(self):\n        return get()\n"))
    assert quiet.class_writes == NOTHING and quiet.escaped == NOTHING


# --- PLM -------------------------------------------------------------------------

def plm(src):
    tree, helpers = transform(src, MANIFEST)
    return ast.unparse(tree) if helpers else None


def prepare_line(out, tool):
    """The index, among top-level statements, of the guard preparing `tool`."""
    for index, stmt in enumerate(ast.parse(out).body):
        if isinstance(stmt, ast.Try) and f"'{tool}'" in ast.unparse(stmt.body[0]):
            return index
    return None


def test_a_read_is_not_hoisted_above_a_write_it_reads():
    out = plm("x = 1\nput(value=x)\ny = 2\nresult = get()\n")
    assert prepare_line(out, "get") == 2          # x = 1, put(...), <prepare>, y = 2, ...


def test_a_read_of_another_resource_is_hoisted_above_the_write():
    out = plm("x = 1\nput(value=x)\ny = 2\nresult = calendar(day=1)\n")
    assert prepare_line(out, "calendar") == 0


def test_a_write_of_everything_holds_back_every_read_but_a_pure_one():
    out = plm("send(to=1)\na = calendar(day=1)\nb = pure(n=2)\n")
    # <prepare pure>, send(...), <prepare calendar>, ...
    assert prepare_line(out, "pure") == 0 and prepare_line(out, "calendar") == 2


def test_a_conditional_write_holds_back_the_read():
    out = plm("n = 3\nif n > 2:\n    put(value=n)\nresult = get()\n")
    assert prepare_line(out, "get") == 2


def test_a_write_in_a_helper_function_holds_back_the_read():
    src = "def save(v):\n    print(v)\n    put(value=v)\n\nsave(1)\nresult = get()\n"
    assert prepare_line(plm(src), "get") == 2
    # A helper that writes nothing does not: the prepare goes first.
    src = "def show(v):\n    print(v)\n\nshow(1)\nresult = get()\n"
    assert prepare_line(plm(src), "get") == 0
    # An unknown function that was handed an effect may call it.
    src = "def run(f):\n    f()\n\nrun(put)\nresult = get()\n"
    assert prepare_line(plm(src), "get") == 2


def test_a_write_in_a_loop_before_the_read_holds_it_back():
    out = plm("for v in [1, 2]:\n    put(value=v)\nresult = get()\n")
    assert prepare_line(out, "get") == 1


def test_no_fan_out_when_the_loop_body_writes_what_it_reads():
    src = "seen = []\nfor k in [1, 2, 3]:\n    n = str(k)\n    seen.append(get(key=k))\n    put(key=k)\n"
    out = plm(src)
    assert "enumerate" not in out                 # later iterations read after earlier writes
    loop = ast.parse(out).body[1]
    assert isinstance(loop.body[0], ast.Try)      # prepared inside each iteration, after the last write
    # With nothing in the body to overlap, the read stays a plain call.
    assert plm("seen = []\nfor k in [1, 2, 3]:\n    seen.append(get(key=k))\n    put(key=k)\n") is None
    # A read the body's writes do not touch still fans out.
    out = plm("seen = []\nfor k in [1, 2, 3]:\n    seen.append(calendar(day=k))\n    put(key=k)\n")
    assert "enumerate" in out


def test_a_write_beside_the_read_in_one_statement_keeps_it_plain():
    assert plm("pair = [put(value=1), get()]\n") is None
    # An enclosing write runs after its arguments: the read inside it may start early.
    assert prepare_line(plm("put(value=get())\n"), "get") == 0


def test_a_read_inside_a_function_waits_for_the_writes_before_it_there():
    src = "def f():\n    put(value=1)\n    x = str(2)\n    return get()\n"
    body = ast.parse(plm(src)).body[0].body
    assert isinstance(body[1], ast.Try) and "'get'" in ast.unparse(body[1])


# --- prefix streaming ----------------------------------------------------------------

def streamed(src, manifest=MANIFEST, chunks=None):
    requests = []
    p = Prefix({}, manifest, lambda r: requests.append(r) or len(requests))
    for chunk in [src] if chunks is None else chunks:
        p.feed(chunk)
    return [(r["tool"], r["args"]) for r in map(json.loads, requests)], p


def test_reads_after_a_write_are_not_started_while_arriving():
    calls, p = streamed("a = get(key=1)\nput(key=1, value=2)\nb = get(key=1)\nc = calendar(day=1)\n")
    assert calls == [("get", {"key": 1}), ("calendar", {"day": 1})]
    assert p.stats["held_back"] == 1


def test_the_decision_does_not_depend_on_chunking():
    src = "x = get(key=1)\nif x:\n    put(key=1, value=2)\ny = get(key=2)\nz = calendar(day=3)\n"
    whole, _ = streamed(src)
    assert whole == [("get", {"key": 1}), ("calendar", {"day": 3})]     # a conditional write counts
    for size in (1, 3, 11):
        assert streamed(src, chunks=[src[i:i + size] for i in range(0, len(src), size)])[0] == whole


def test_a_write_in_a_helper_holds_back_reads_after_its_call_only():
    src = "def save(v):\n    put(key=1, value=v)\n\na = get(key=1)\nsave(3)\nb = get(key=2)\n"
    assert streamed(src)[0] == [("get", {"key": 1})]
    src = "def show(v):\n    print(v)\n\nshow(3)\nb = get(key=2)\n"
    assert streamed(src)[0] == [("get", {"key": 2})]


def test_a_write_in_a_loop_holds_back_later_iterations():
    src = "for k in [1, 2, 3]:\n    get(key=k)\n    put(key=k, value=0)\nx = 1\n"
    assert streamed(src)[0] == [("get", {"key": 1})]
    src = "for k in [1, 2, 3]:\n    put(key=k, value=0)\nget(key=9)\n"
    assert streamed(src)[0] == []


def test_a_write_beside_the_read_counts_in_evaluation_order():
    assert streamed("pair = [put(key=1, value=1), get(key=1)]\n")[0] == []
    assert streamed("put(key=1, value=get(key=1))\n")[0] == [("get", {"key": 1})]


def test_a_write_in_a_branch_that_cannot_run_does_not_count():
    assert streamed("if False:\n    put(key=1, value=1)\nb = get(key=1)\n")[0] == [("get", {"key": 1})]


def test_an_unknown_call_counts_once_an_effect_escaped():
    src = "import json\nrows = json.loads('[]')\nb = get(key=1)\n"
    assert streamed(src)[0] == [("get", {"key": 1})]        # nothing escaped: json cannot reach put
    src = "hooks = [put]\nrows = sorted([3, 1])\nb = get(key=1)\n"
    assert streamed(src)[0] == [("get", {"key": 1})]        # sorted with plain data is safe
    src = "hooks = [put]\nimport json\nrows = json.loads('[]')\nb = get(key=1)\n"
    assert streamed(src)[0] == []
