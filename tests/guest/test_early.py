"""Early evaluation never runs the program's code, and prefix analysis stays bounded.

Programs whose would-be-early expressions touch lazy iterators, generators or
user dunders run plain, with PLM and streamed (through the real bootstrap
over a fake host), and must give the same value, stdout and effects, with
nothing of theirs started early. Prefix analysis must skip code that cannot
run, give a statement up when it is past its budget, and not be fooled by
aliasing. Run from the repository root:
    PYTHONPATH=guest:tests/programs /usr/bin/python3 -m pytest -q tests/guest
"""
import ast
import json
import resource
import sys
import time
import types

import pytest

if "_spine" not in sys.modules:   # another test module may have installed its own
    _fake = types.ModuleType("_spine")

    class _Interrupt(BaseException):
        pass

    def _no_host(*_):
        raise AssertionError("no fake host installed")
    _fake.Interrupt = _Interrupt
    _fake.call = _fake.prepare = _fake.resolve = _no_host
    sys.modules["_spine"] = _fake

import bootstrap  # noqa: E402
import early  # noqa: E402
import hot  # noqa: E402
import plm  # noqa: E402
import policy  # noqa: E402
import prefix  # noqa: E402
from early import UNKNOWN, Evaluator, Meter, weight  # noqa: E402
from prefix import Prefix  # noqa: E402
from protocol import encode_request  # noqa: E402

MANIFEST = [{"name": "lookup", "speculative": True}, {"name": "echo", "speculative": True},
            {"name": "emit", "speculative": False}]


class Host:
    """The demo tools (lookup = 7 * key, emit records its value and returns the
    count so far), and prepares that start at once and are claimed by resolve."""

    def __init__(self):
        self.emitted = []
        self.early = []          # requests started early (PLM or stream)
        self.streamed = []       # ... of which before the stream's final execution
        self.prepared = {}
        self.next_handle = 1

    def answer(self, request):
        req = json.loads(request)
        args = req["args"]
        if req["tool"] == "emit":
            self.emitted.append(args.get("value"))
            return json.dumps({"value": len(self.emitted)}).encode()
        if req["tool"] == "lookup":
            if type(args.get("key")) is not int:
                return json.dumps({"error": "lookup: key must be an integer"}).encode()
            return json.dumps({"value": 7 * args["key"]}).encode()
        return json.dumps({"value": args}).encode()

    def prepare(self, request):
        assert json.loads(request)["tool"] != "emit", "the effectful emit was started early"
        handle = self.next_handle
        self.next_handle += 1
        self.early.append(json.loads(request))
        self.prepared[handle] = (request, self.answer(request))
        return handle

    def call(self, request):
        return self.answer(request)

    def resolve(self, handle, request):
        entry = self.prepared.pop(handle, None)
        if entry is None or entry[0] != request:
            return self.answer(request)
        return entry[1]


@pytest.fixture
def host(monkeypatch):
    h = Host()
    monkeypatch.setattr(bootstrap, "call", h.call)
    monkeypatch.setattr(bootstrap, "prepare", h.prepare)
    monkeypatch.setattr(bootstrap, "resolve", h.resolve)
    return h


def run(host, source, mode, chunk=7, budget=None):
    """(value, error, stdout, emitted) of `source` run plain, with PLM or streamed."""
    host.emitted.clear()
    host.early.clear()
    if mode == "stream":
        begin = {"stream": "t", "inputs": {}, "manifest": MANIFEST}
        if budget is not None:
            begin["budget"] = budget
        bootstrap.prefix_begin(json.dumps(begin))
        for at in range(0, len(source), chunk):
            bootstrap.prefix_feed(json.dumps({"stream": "t", "chunk": source[at:at + chunk]}))
        host.streamed = list(host.early)
        request = {"prefix": True, "stream": "t"}
    else:
        request = {"source": source, "inputs": {}, "manifest": MANIFEST, "plm": mode == "plm"}
    response = json.loads(bootstrap.execute(json.dumps(request)))
    stdout, _ = bootstrap.take_output()
    return response.get("value"), response.get("error"), stdout.decode(), list(host.emitted)


# --- Hostile programs: plain, PLM and streamed mean the same ----------------------

MAP_WITH_EFFECTS = """\
xs = map(lambda v: emit(value=v), [1, 2, 3])
a = lookup(key=1)
b = lookup(key=2 if 3 in xs else 5)
result = [a, b, list(xs)]
"""
FILTER_WITH_EFFECTS = """\
ys = filter(lambda v: emit(value=v) > 1, [5, 6, 7])
a = lookup(key=1)
b = lookup(key=1 if 6 in ys else 0)
result = [a, b, list(ys)]
"""
GENERATOR_WITH_EFFECTS = """\
def gen():
    for v in [1, 2, 3]:
        emit(value=v)
        print('yield', v)
        yield v
g = gen()
a = lookup(key=1)
r = lookup(key=1 if 2 in g else 0)
result = [a, r, list(g)]
"""
USER_DUNDERS = """\
class Box:
    def __contains__(self, x):
        emit(value='contains')
        return True
    def __iter__(self):
        emit(value='iter')
        return iter([1])
    def __eq__(self, other):
        emit(value='eq')
        return True
    def __hash__(self):
        emit(value='hash')
        return 1
b = Box()
r = lookup(key=1 if 3 in b else 0)
s = lookup(key=1 if b == 1 else 0)
d = {b: 1}
t = lookup(key=2 if 1 in d else 0)
u = lookup(key=3 if 5 in [b] else 0)
result = [r, s, t, u]
"""
ITERATOR_STATE = """\
it = iter([1, 2, 3])
a = lookup(key=1)
b = lookup(key=1 if 2 in it else 0)
result = [a, b, list(it)]
"""
SYSTEM_EXIT_IN_GENERATOR = """\
def g():
    emit(value='ran')
    raise SystemExit(7)
    yield 1
x = g()
a = lookup(key=1)
try:
    b = lookup(key=1 if 1 in x else 2)
except SystemExit as e:
    b = -e.code
result = [a, b]
"""
KEYBOARD_INTERRUPT_IN_GENERATOR = SYSTEM_EXIT_IN_GENERATOR.replace("SystemExit(7)", "KeyboardInterrupt(7)") \
    .replace("except SystemExit as e:\n    b = -e.code", "except KeyboardInterrupt as e:\n    b = -e.args[0]")
GENERATOR_EXIT_IN_GENERATOR = SYSTEM_EXIT_IN_GENERATOR.replace("SystemExit(7)", "GeneratorExit(7)") \
    .replace("except SystemExit as e:\n    b = -e.code", "except GeneratorExit as e:\n    b = -e.args[0]")
UNCAUGHT_SYSTEM_EXIT = """\
def g():
    raise SystemExit(3)
    yield 1
x = g()
emit(value='before')
b = lookup(key=1 if 1 in x else 2)
emit(value='never')
"""
ALIASING_BLOWUP = """\
a = [0] * 1000
b = [a] * 1000
c = [b] * 1000
n = lookup(key=1)
if n > 100:
    s = str(c)
    t = c == [b] * 1000
result = [len(c), n]
"""
ALIASING_IN_A_LOOP = """\
total = 0
for i in range(3):
    a = [i] * 1000
    b = [a] * 1000
    c = [b] * 1000
    if lookup(key=0) > 5:
        total += len(str(c)) + len(f'{c}') + len(sorted([c, c]))
    total += lookup(key=len(c))
result = total
"""
ALIASING_COMPARE = """\
total = 0
for i in range(2):
    a = [0] * 1000
    d = [[[a] * 1000] * 1000] * 1000
    a2 = [0] * 1000
    d2 = [[[a2] * 1000] * 1000] * 1000
    if lookup(key=0) > 5:
        total += (d == d2) + len(sorted([d, d2])) + (d in [d2])
    total += lookup(key=len(d))
result = total
"""
WHILE_FALSE_ALLOCATION = """\
a = [0] * 1000
b = [a] * 1000
while False:
    s = repr([b] * 1000)
    lookup(key=99)
result = lookup(key=len(b))
"""

HOSTILE = {
    "map": (MAP_WITH_EFFECTS, [7, 14, []], None, [1, 2, 3]),
    "filter": (FILTER_WITH_EFFECTS, [7, 7, [7]], None, [5, 6, 7]),
    "generator": (GENERATOR_WITH_EFFECTS, [7, 7, [3]], None, [1, 2, 3]),
    "user_dunders": (USER_DUNDERS, [7, 7, 14, 21], None, ["contains", "eq", "hash", "eq", "eq"]),
    "iterator_state": (ITERATOR_STATE, [7, 7, [3]], None, []),
    "system_exit": (SYSTEM_EXIT_IN_GENERATOR, [7, -7], None, ["ran"]),
    "keyboard_interrupt": (KEYBOARD_INTERRUPT_IN_GENERATOR, [7, -7], None, ["ran"]),
    "generator_exit": (GENERATOR_EXIT_IN_GENERATOR, [7, -7], None, ["ran"]),
    "uncaught_system_exit": (UNCAUGHT_SYSTEM_EXIT, None, "SystemExit: 3", ["before"]),
    "aliasing": (ALIASING_BLOWUP, [1000, 7], None, []),
    "aliasing_loop": (ALIASING_IN_A_LOOP, 21000, None, []),
    "aliasing_compare": (ALIASING_COMPARE, 14000, None, []),
    "while_false": (WHILE_FALSE_ALLOCATION, 7000, None, []),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("mode", ["plain", "plm", "stream"])
def test_hostile_programs_mean_the_same_plain_plm_and_streamed(host, name, mode):
    source, value, error, emitted = HOSTILE[name]
    value_got, error_got, stdout, emitted_got = run(host, source, mode)
    assert (value_got, error_got, emitted_got) == (value, error, emitted)
    if name == "generator":
        assert stdout == "yield 1\nyield 2\nyield 3\n"
    # Nothing that reads a lazy iterator, generator or user object started early.
    for request in host.early:
        assert request == {"tool": "lookup", "args": {"key": 1}} or name in (
            "aliasing", "aliasing_loop", "aliasing_compare", "while_false"), request


def test_in_over_a_map_is_not_started_early_and_emit_runs_once_per_item(host):
    run(host, MAP_WITH_EFFECTS, "plm")
    assert host.early == [{"tool": "lookup", "args": {"key": 1}}]
    assert host.emitted == [1, 2, 3]


def test_streamed_aliasing_blowup_is_cheap_and_starts_its_known_call(host):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    assert run(host, ALIASING_BLOWUP, "stream")[:2] == ([1000, 7], None)
    assert time.monotonic() - started < 20     # 50 s and 3 GB before the weight guard
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024
    assert host.early == [{"tool": "lookup", "args": {"key": 1}}]


def test_a_spent_stream_budget_starts_nothing_and_the_program_still_runs(host):
    value = run(host, "a = lookup(key=1)\nb = lookup(key=2)\nresult = a + b\n", "stream",
                budget={"stream_ms": 0})
    assert value[:2] == (21, None)
    assert host.streamed == []


# --- prepare_call: nothing but the host's Interrupt escapes ------------------------

@pytest.mark.parametrize("exception", [SystemExit(1), KeyboardInterrupt(), GeneratorExit(), ValueError("x"),
                                       RecursionError()])
def test_prepare_call_swallows_every_exception_of_the_early_evaluation(host, exception):
    def names():
        raise exception
    assert bootstrap.prepare_call("lookup", "{'key': n}", names) == 0
    assert host.early == []


def test_prepare_call_lets_the_hosts_interrupt_through(host):
    def names():
        raise bootstrap.Interrupt("deadline")
    with pytest.raises(bootstrap.Interrupt):
        bootstrap.prepare_call("lookup", "{'key': n}", names)


def test_prepare_call_starts_plain_arguments(host):
    handle = bootstrap.prepare_call("lookup", "{'key': n + len(xs)}", lambda: {"n": 1, "xs": [1, 2]})
    assert handle == 1 and host.early == [{"tool": "lookup", "args": {"key": 3}}]


# --- The evaluator: plain data only, aliasing counted --------------------------------

def evaluate(text, **env):
    return Evaluator(lambda name: True, Meter(1 << 20)).value(ast.parse(text, mode="eval").body, env)


class Sub(list):
    def __eq__(self, other):
        raise AssertionError("user __eq__ ran")

    __hash__ = None


@pytest.mark.parametrize("text", ["3 in xs", "xs == [1]", "str(xs)", "sorted(xs)", "f'{xs}'", "[1, xs][1] == 1",
                                  "len(xs)", "xs[0]", "{xs}", "{**xs}", "1 in [xs]", "[xs] == [[1]]",
                                  "max(xs, default=1)", "repr([xs])", "{'a': xs}.get('a') == 1"])
def test_operations_on_a_map_generator_or_subclass_are_unknown_and_run_nothing(text):
    def gen():
        raise AssertionError("generator body ran")
        yield 1
    for xs in (map(lambda v: 1 / 0, [1]), gen(), Sub([1]), filter(None, iter(lambda: 1 / 0, 2))):
        assert evaluate(text, xs=xs) is UNKNOWN


def test_a_map_is_not_consumed_by_early_evaluation():
    xs = map(str, [1, 2, 3])
    assert evaluate("'1' in xs", xs=xs) is UNKNOWN
    assert list(xs) == ["1", "2", "3"]


def test_weight_counts_shared_parts_once_per_place_and_walks_them_once():
    a = [0] * 1000
    b = [a] * 1000
    assert weight(b, limit=10 ** 7) == 1 + 1000 * 1001
    meter = Meter(1 << 20)
    assert weight([b] * 1000, meter=meter) is None
    assert (1 << 20) - meter.left <= 4000          # distinct containers, not 10**9 leaves
    assert evaluate("str(c)", c=[b] * 1000) is UNKNOWN
    assert evaluate("c == c", c=[b] * 1000) is UNKNOWN


@pytest.mark.parametrize("value", [Sub(), {(1, 2): 1}, {1: {2}}, [1, b"x"], (1, object()), True.__class__])
def test_weight_refuses_anything_but_plain_data(value):
    assert weight(value) is None


def test_weight_refuses_cycles():
    xs = [1]
    xs.append(xs)
    assert weight(xs) is None
    assert evaluate("str(xs)", xs=xs) is UNKNOWN


def test_meter_raises_over_budget_past_its_steps_and_deadline():
    meter = Meter(10)
    meter.tick(10)
    with pytest.raises(early.OverBudget):
        meter.tick()
    meter = Meter(1 << 30, deadline=time.monotonic() - 1)
    with pytest.raises(early.OverBudget):
        meter.tick(early.CLOCK_EVERY)


# --- Prefix: dead code, budgets ---------------------------------------------------------

def prefix_keys(src, **kwargs):
    requests = []
    p = Prefix({"flag": False}, MANIFEST, lambda r: requests.append(json.loads(r)) or len(requests), **kwargs)
    p.feed(src)
    return [r["args"].get("key") for r in requests], p


@pytest.mark.parametrize("src", [
    "while False:\n    lookup(key=1)\nlookup(key=2)\n",
    "while 0:\n    x = lookup(key=1)\nelse:\n    pass\nlookup(key=2)\n",
    "if False:\n    lookup(key=1)\nlookup(key=2)\n",
    "if inputs['flag']:\n    lookup(key=1)\nelse:\n    lookup(key=2)\nz = 0\n",
    "for x in []:\n    lookup(key=1)\nlookup(key=2)\n",
    "for x in '':\n    lookup(key=1)\nelse:\n    lookup(key=2)\nz = 0\n",
    "lookup(key=2)\nraise SystemExit\nlookup(key=1)\n",
    "lookup(key=2)\nif True:\n    raise ValueError\nlookup(key=1)\n",
    "lookup(key=2)\nassert False, lookup(key=3)\nlookup(key=1)\n",
    "lookup(key=2)\nwhile True:\n    pass\nlookup(key=1)\n",
    "lookup(key=2)\nwhile 1:\n    for i in [1]:\n        break\nlookup(key=1)\n",
])
def test_prefix_never_follows_code_that_cannot_run(src):
    keys, _ = prefix_keys(src)
    assert 1 not in keys and 2 in keys


def test_prefix_follows_code_after_a_loop_that_can_break():
    keys, _ = prefix_keys("while True:\n    break\nlookup(key=1)\n")
    assert keys == [1]


def test_a_statement_past_its_step_budget_is_given_up_and_the_next_one_is_followed():
    src = (f"M = {[str(i) for i in range(60)]!r}\n"
           "for a in M:\n    for b in M:\n        lookup(key=a + b)\n"
           "k = 5\nlookup(key=k)\n")
    keys, p = prefix_keys(src, budget={"statement_steps": 2000})
    assert p.stats["given_up"] == 1
    assert keys == [5]                          # nothing of the given-up loop started
    keys, p = prefix_keys(src)
    assert p.stats["given_up"] == 0 and len(keys) == 256


def test_a_given_up_statement_forgets_what_it_could_change():
    src = ("xs = [1]\nn = 3\nfor i in list(range(60)):\n    xs.append(i)\n    n = i + 1\n"
           "lookup(key=len(xs))\nlookup(key=n)\nlookup(key=7)\n")
    src = src.replace("list(range(60))", repr(list(range(60))))
    keys, p = prefix_keys(src, budget={"statement_steps": 200})
    assert p.stats["given_up"] == 1 and keys == [7]
    keys, p = prefix_keys(src)
    assert p.stats["given_up"] == 0 and keys == [7]     # the loop forgets xs and n by itself


def test_the_stream_budget_stops_the_analysis():
    keys, p = prefix_keys("lookup(key=1)\nlookup(key=2)\n", budget={"stream_ms": 0})
    assert keys == [] and p.stopped == "the stream's analysis budget is spent"


@pytest.mark.parametrize("bad", [None, "x", {"statement_steps": -1}, {"statement_ms": "1"},
                                 {"stream_ms": float("nan")}])
def test_a_malformed_budget_takes_the_defaults(bad):
    p = Prefix({}, MANIFEST, lambda r: 1, budget=bad)
    assert (p.budget.statement_steps, p.budget.statement_seconds, p.budget.stream_seconds) == (
        prefix.STATEMENT_STEPS, prefix.STATEMENT_MS / 1000, prefix.STREAM_MS / 1000)


def test_prefix_aliasing_loop_gives_up_or_refuses_within_budget():
    started = time.monotonic()
    keys, p = prefix_keys(ALIASING_IN_A_LOOP)
    assert time.monotonic() - started < 20
    assert p.stopped is None


# --- One list of reflective names --------------------------------------------------------

def test_plm_prefix_and_hot_share_the_policy_lists():
    assert plm.REFLECTIVE_NAMES is policy.REFLECTIVE_NAMES
    assert prefix.REFLECTIVE_NAMES is policy.REFLECTIVE_NAMES
    assert plm.is_reflective_attr is policy.is_reflective_attr
    assert prefix.is_reflective_attr is policy.is_reflective_attr
    assert hot.is_reflective_attr is policy.is_reflective_attr
    assert hot._UNSAFE == policy.REFLECTIVE_NAMES | (policy.IO_NAMES - {"print"})  # print compiles
    for module in (plm, prefix, hot):
        own = {k for k, v in vars(module).items() if isinstance(v, frozenset) and v & {"globals", "eval"}}
        assert own <= {"REFLECTIVE_NAMES", "_UNSAFE"}, (module.__name__, own)


@pytest.mark.parametrize("name", sorted(policy.REFLECTIVE_NAMES))
def test_every_reflective_name_has_the_same_effect_in_all_three(name):
    # PLM leaves the program alone.
    _, helpers = plm.transform(f"x = {name}\nr = lookup(key=1)\n", MANIFEST)
    assert helpers == ()
    # Prefix notes reflection.
    p = Prefix({}, MANIFEST, lambda r: 1)
    p.feed(f"x = {name}\n")
    assert p.reflective
    # A hot function using it stays Python.
    source = f"def f(x: int) -> int:\n    y = {name}\n    return x\n"
    reasons = hot.plan(source, set()).reasons
    assert reasons["f"] == f"line 2: does I/O or reflection ({name})"


@pytest.mark.parametrize("attr", ["__dict__", "__class__", "f_globals", "gi_frame", "tb_frame", "co_consts",
                                  "cell_contents", "_getframe", "__subclasses__"])
def test_every_reflective_attribute_has_the_same_effect_in_all_three(attr):
    _, helpers = plm.transform(f"x = y.{attr}\nr = lookup(key=1)\n", MANIFEST)
    assert helpers == ()
    p = Prefix({}, MANIFEST, lambda r: 1)
    p.feed(f"x = y.{attr}\n")
    assert p.reflective
    reasons = hot.plan(f"def f(x: int) -> int:\n    y = x.{attr}\n    return x\n", set()).reasons
    assert reasons["f"] == f"line 2: reaches frames or namespaces (.{attr})"


def test_an_except_name_is_the_functions_own_not_the_programs_global():
    # `except ... as e` binds a local e, even where the program binds a global e too.
    source = ("from typing import Any\ndef f(x: Any) -> Any:\n    try:\n        return x[0]\n"
              "    except KeyError as e:\n        return str(e)\n"
              "def g(x: int) -> int:\n    return x + e\n"
              "try:\n    f(1)\nexcept TypeError as e:\n    result = str(e)\n")
    planned = hot.plan(source, set())
    assert "f" in planned.units and "f" not in planned.reasons
    assert planned.reasons["g"] == "line 8: uses the global e"


def test_descriptive_dunders_are_not_reflective():
    for attr in ("__name__", "__doc__", "__traceback__"):
        assert not policy.is_reflective_attr(attr)
    _, helpers = plm.transform("try:\n    r = lookup(key=1)\nexcept Exception as e:\n    t = e.__traceback__\n",
                               MANIFEST)
    assert helpers != ()


def test_encode_request_is_what_the_stream_prepares():
    requests = []
    p = Prefix({}, MANIFEST, lambda r: requests.append(r) or 1)
    p.feed("lookup(key=[1, 'a'])\n")
    assert requests == [encode_request("lookup", {"key": [1, "a"]})]


def test_the_class_name_of_a_caught_exception_is_no_reflection():
    # type(e).__name__ of an `except ... as e` name is a str native code reads of the fault;
    # type() of anything else, or type(e) itself, stays reflection.
    caught = ("def f(x: int) -> str:\n    try:\n        return str(1 // x)\n"
              "    except ZeroDivisionError as e:\n        return type(e).__name__\n")
    plan = hot.plan(caught, set())
    assert "f" not in plan.reasons and "f" in plan.functions, plan.reasons
    for body in ("        return type(x).__name__\n", "        return str(type(e))\n",
                 "        return type(e).__qualname__\n"):
        source = caught.replace("        return type(e).__name__\n", body)
        assert hot.plan(source, set()).reasons["f"] == "line 5: does I/O or reflection (type)", body
