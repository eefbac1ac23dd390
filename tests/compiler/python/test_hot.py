"""guest/hot.py: which functions are handed to the host, and the switch.

The host is played by a small in-process stand-in that compiles with the real
frontend (simple_compile) into a temporary cache, answering the `native`
crossing as the Go host does (start / compile / poll). The Go suites test the
real crossing and compile service.
"""
import ast
import json
import sys
import types

import pytest

fake = sys.modules.get("_spine") or types.ModuleType("_spine")
sys.modules["_spine"] = fake
fake.native = lambda request: HOST.handle(request)

import hot  # noqa: E402  (needs _spine.native)
from native import simple_compile  # noqa: E402


class FakeHost:
    def __init__(self, directory):
        self.dir = directory
        self.units = {}
        self.done = {}      # name -> answer, compiled but not yet polled
        self.defer = False  # compile answers "pending" until the next poll
        self.requests = []

    def _build(self, name):
        path = str(self.dir / f"{name}.so")
        try:
            simple_compile(self.units[name], path)
        except Exception as e:  # noqa: BLE001
            return {"name": name, "status": "failed", "cache": "miss",
                    "failure": {"kind": "unsupported", "message": str(e)}}
        return {"name": name, "status": "ready", "cache": "miss", "path": path}

    def handle(self, request):
        req = json.loads(request)
        self.requests.append(req["op"])
        if req["op"] == "start":
            self.units = {u["name"]: u["source"] for u in req["units"]}
            return json.dumps({"units": [{"name": n, "status": "cold"} for n in self.units]}).encode()
        if req["op"] == "compile":
            answer = self._build(req["name"])
            if self.defer:
                self.done[req["name"]] = answer
                answer = {"name": req["name"], "status": "pending", "cache": "miss"}
            return json.dumps({"units": [answer]}).encode()
        ready, self.done = list(self.done.values()), {}
        return json.dumps({"units": ready}).encode()


HOST = None


@pytest.fixture
def host(tmp_path):
    global HOST
    HOST = FakeHost(tmp_path)
    hot.setup("/nonexistent")  # native is importable here; setup only takes the loader
    return HOST


def run(source, mode="auto", threshold=3, tools=()):
    plan = hot.plan(source, set(tools))
    scope = {"__name__": "__main__"}
    h = hot.Hot(plan, {"mode": mode, "hot": threshold}, scope)
    scope[hot.DECORATOR] = h.decorate
    h.start()
    exec(compile(hot.decorate(ast.parse(source), plan), "<spine>", "exec"), scope)
    return scope, {e["name"]: e for e in json.loads(h.report())}


def test_plan_screens_and_builds_units():
    source = (
        "import math\n"
        "def helper(x: int) -> int:\n"
        "    return x * 2\n\n"
        "def main(x: int) -> int:\n"
        "    # a comment\n"
        "    return helper(x) + 1\n\n"
        "def tool_user(x: int) -> int:\n"
        "    return lookup(key=x)\n\n"
        "def shadowed(x: int) -> int:\n"
        "    return x\n"
        "shadowed = 3\n"
        "def kw(x: int, *y: int) -> int:\n"
        "    return x\n"
        "def reads_module(x: int) -> int:\n"
        "    return math.floor(x)\n"
    )
    p = hot.plan(source, {"lookup"})
    assert p.functions == ["helper", "main", "tool_user", "shadowed", "kw", "reads_module"]
    assert sorted(p.units) == ["helper", "main", "reads_module"]
    assert p.reasons == {
        "tool_user": "line 10: calls the tool lookup",
        "shadowed": "the name shadowed is bound more than once in the program",
        "kw": "*args and **kwargs stay Python",
    }
    assert p.units["reads_module"].source.startswith("import math\n\ndef reads_module")
    unit = p.units["main"]
    assert unit.source == ("def helper(x: int) -> int:\n    return x * 2\n\n"
                           "def main(x: int) -> int:\n    # a comment\n    return helper(x) + 1\n")
    assert [unit.program_line(n) for n in (1, 2, 4, 6)] == [2, 3, 5, 7]


def test_the_plan_walks_every_node_in_the_order_ast_walks_them():
    # The plan's own walkers stand in for ast.walk and ast.iter_child_nodes: the same
    # nodes in the same order (which reason a function is given depends on it), over a
    # program with every kind of field: lists of nodes and of plain strings (global
    # names), optional fields left None, keyword-only defaults, match patterns.
    source = ("from typing import List\n"
              "def f(a: int, *, b: int = 2, **kw) -> List[int]:\n"
              "    global G, H\n"
              "    match a:\n"
              "        case [1, *rest] | {'k': _, **more}:\n"
              "            return [x for x in rest if x if not x]\n"
              "    try:\n"
              "        pass\n"
              "    except (ValueError, KeyError) as e:\n"
              "        raise\n"
              "    return [lambda y=b: y, a[1:2:], f'{a!r:>{b}}']\n"
              "class C(Base, metaclass=M):\n"
              "    x: int\n"
              "    async def g(self):\n"
              "        async with h() as (p, q):\n"
              "            await p\n")
    with open(hot.__file__, encoding="utf-8") as f:
        trees = [ast.parse(source), ast.parse(f.read())]
    for tree in trees:
        assert [id(n) for n in hot._walk(tree)] == [id(n) for n in ast.walk(tree)]
        for node in ast.walk(tree):
            assert [id(n) for n in hot._children(node)] == [id(n) for n in ast.iter_child_nodes(node)], ast.dump(node)


def test_the_plan_runs_none_of_asts_own_walkers(monkeypatch):
    # In a sandboxed child the first calls of ast's walkers (Python code in ast.py,
    # whose every call runs `from collections import deque`) cost more than their walk: the
    # plan uses its own. The program names a caught exception's class (native: `name`) and
    # another value's (reflection: `peek`), so every question of _caught_type_names is asked.
    source = ("from typing import List\n\n\n"
              "def scale(x: int, k: int) -> int:\n    return x * k + 1\n\n\n"
              "def name(x: int) -> str:\n    try:\n        return str(1 // x)\n"
              "    except ZeroDivisionError as e:\n        return type(e).__name__\n\n\n"
              "def peek(x: int) -> str:\n    return type(x).__name__\n")
    class WithoutWalkers(types.ModuleType):  # the ast module hot.py sees, less its walkers
        def __getattr__(self, name):
            if name in ("walk", "iter_child_nodes"):
                raise AssertionError(f"the plan called ast.{name}")
            return getattr(ast, name)

    monkeypatch.setattr(hot, "ast", WithoutWalkers("ast"))
    plan = hot.plan(source, set())
    assert sorted(plan.units) == ["name", "scale"]
    assert plan.reasons == {"peek": "line 16: does I/O or reflection (type)"}


def test_units_are_cut_from_the_source_as_ast_would_cut_them():
    # CRLF and lone CR line ends, a form feed (not a line end for the parser's offsets),
    # non-ASCII text before a node on its line (offsets count UTF-8 bytes), and two
    # constants on one line.
    source = ("LABEL = 'é→'; LIMIT = 7\r\n"
              "def clamp(x: int) -> int:\r\n"
              "    s = 'ü'  # ü\r"
              "    return min(x, LIMIT)\x0c\n"
              "def twice(x: int) -> int:\n"
              "    return clamp(x) * 2\n")
    tree = ast.parse(source)
    lines = hot._source_lines(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.stmt, ast.expr)):
            assert hot._segment(lines, node) == (ast.get_source_segment(source, node), node.lineno), ast.dump(node)
    unit = hot.plan(source, set()).units["twice"]
    assert unit.source == ("LIMIT = 7\n\n"
                           "def clamp(x: int) -> int:\r\n    s = 'ü'  # ü\r    return min(x, LIMIT)\n\n"
                           "def twice(x: int) -> int:\n    return clamp(x) * 2\n")


def test_eager_binds_native_at_the_def(host):
    scope, report = run("def f(x: int) -> int:\n    return x + 1\n\nresult = f(41)\n", mode="eager")
    assert host.requests == ["start"]  # eager: the stand-in answers cold, so nothing was compiled
    assert scope["result"] == 42 and report["f"]["status"] == "python"


def test_auto_switches_after_threshold_and_keeps_meaning(host):
    source = ("def f(x: int) -> int:\n    return x * 3\n\n"
              "held = f\n"
              "values = [f(i) for i in range(10)]\n"
              "result = [values, type(f).__name__, held(2), f(2 ** 70), f(x=4)]\n")
    scope, report = run(source, threshold=3)
    assert scope["result"] == [[3 * i for i in range(10)], "NativeFunction", 6, 3 * 2 ** 70, 12]
    f = report["f"]
    assert f["status"] == "native" and f["switched_after"] == 3
    assert f["fallbacks"] == 1  # 2 ** 70 does not fit int64 (keywords are bound natively)
    assert host.requests == ["start", "compile"]


def test_auto_polls_until_the_module_is_ready(host, monkeypatch):
    host.defer = True
    monkeypatch.setattr(hot, "_POLL_SECONDS", 0.0)
    monkeypatch.setattr(hot, "_POLL_EVERY", 4)
    scope, report = run("def f(x: int) -> int:\n    return x - 1\n\nresult = [f(i) for i in range(20)]\n",
                        threshold=2)
    assert scope["result"] == [i - 1 for i in range(20)]
    assert report["f"]["status"] == "native" and report["f"]["switched_after"] == 4
    assert host.requests == ["start", "compile", "poll"]


def test_cold_and_failed_functions_report_why(host):
    source = ("def cold(x: int) -> int:\n    return x\n\n"
              "def bad(x: int) -> int:\n    for i in range(1):\n        pass\n    else:\n        pass\n"
              "    return x ** 2\n\n"
              "def talks(x: int) -> int:\n    if x < 0:\n        input()\n    return x\n\n"
              "result = [cold(1), bad(2), bad(3), bad(4), talks(5)]\n")
    scope, report = run(source, threshold=3)
    assert scope["result"] == [1, 4, 9, 16, 5]
    assert report["cold"] == {"name": "cold", "status": "python", "calls": 1,
                              "reason": "not hot: called 1 times (threshold 3)"}
    assert report["bad"]["status"] == "python" and "ForElse" in report["bad"]["reason"]
    assert report["talks"]["reason"] == "line 13: does I/O or reflection (input)"


def test_host_refusal_keeps_python(host, monkeypatch):
    monkeypatch.setattr(fake, "native", lambda request: b'{"error": "native functions are off"}')
    scope, report = run("def f(x: int) -> int:\n    return x\n\nresult = f(7)\n")
    assert scope["result"] == 7
    assert report["f"]["reason"] == "the host refused native code: native functions are off"


def test_native_waits_for_the_defs_it_calls(host):
    # CPython raises NameError when f runs before g is defined; native code,
    # which has g compiled in, must not answer instead.
    source = ("def f(x: int) -> int:\n    return g(x) + 1\n\n"
              "try:\n    early = f(1)\nexcept NameError as e:\n    early = str(e)\n\n"
              "def g(x: int) -> int:\n    return x * 2\n\n"
              "result = [early, f(1), type(f).__name__]\n")
    scope, report = run(source, mode="auto", threshold=1)
    assert scope["result"] == ["name 'g' is not defined", 3, "NativeFunction"]
    assert report["f"]["status"] == "native"


def test_switched_function_keeps_the_python_names(host):
    # Messages CPython builds from the callee name it as before the switch.
    source = ("def g(x: int) -> int:\n    return x + 1\n\n"
              "before = [g(1) for _ in range(3)]\n"
              "try:\n    g(**1)\nexcept TypeError as e:\n    message = str(e)\n\n"
              "result = [type(g).__name__, g.__qualname__, g.__module__, message]\n")
    scope, report = run(source, mode="auto", threshold=1)
    assert report["g"]["status"] == "native"
    assert scope["result"] == ["NativeFunction", "g", "__main__", "__main__.g() argument after ** must be a mapping, "
                               "not int"]


TYPED = (
    "from typing import List, Tuple\n"
    "import math\n"
    "LIMIT = 10 ** 3\n"
    "class Box:\n"
    "    def __init__(self, w: float) -> None:\n"
    "        self.w = w\n"
    "    def area(self) -> float:\n"
    "        return self.w * self.w\n"
    "def check(x: int) -> None:\n"
    "    if x > LIMIT:\n"
    "        raise ValueError(f'{x} is over the limit')\n"
    "def scaled(xs: List[int]) -> Tuple[int, float]:\n"
    "    for x in xs:\n"
    "        check(x)\n"
    "    return sum(xs) % LIMIT, math.sqrt(Box(2.0).area())\n"
    "def make(w: float) -> Box:\n"
    "    return Box(w)\n"
    "def later() -> int:\n"
    "    return AFTER\n"
    "AFTER = 1\n"
    "def rebinds() -> float:\n"
    "    return cmath.pi\n"
    "import math as cmath\n"
)


def test_plan_carries_typing_math_constants_and_classes():
    p = hot.plan(TYPED, set())
    assert sorted(p.units) == ["check", "scaled"]
    unit = p.units["scaled"]
    assert unit.names == ["check", "scaled"]
    for piece in ("from typing import List, Tuple", "import math", "LIMIT = 10 ** 3", "class Box:"):
        assert piece in unit.source
    assert "make" not in unit.source
    assert "cannot cross into Python" in p.reasons["make"]
    # Bound after the def: calling it before the binding ran would be a NameError in CPython.
    assert p.reasons["later"] == "line 19: uses the global AFTER"
    assert p.reasons["rebinds"] == "line 22: uses the global cmath"


def test_a_module_whose_attribute_is_assigned_is_not_native_math():
    p = hot.plan("import math\nmath.pi = 3\ndef f() -> float:\n    return math.pi\n", set())
    assert p.reasons["f"] == "line 4: uses the global math"


def test_typed_program_runs_native_with_pythons_answers(host):
    scope, report = run(TYPED + "r = scaled([5, 999])\n"
                        "try:\n    scaled([1001])\nexcept ValueError as e:\n    err = str(e)\n", threshold=1)
    assert report["scaled"]["status"] == "native" and report["check"]["status"] == "native"
    assert scope["r"] == (4, 2.0)
    assert scope["err"] == "1001 is over the limit"
    assert scope["check"](3) is None and type(scope["check"]).__name__ == "NativeFunction"


def test_a_unit_with_class_helpers_switches(host):
    # make() cannot be called from Python (it returns a Box), but area_of's unit holds it.
    source = ("class Box:\n    def __init__(self, w: int) -> None:\n        self.w = w\n"
              "def make(w: int) -> Box:\n    return Box(w)\n"
              "def area_of(w: int) -> int:\n    b = make(w)\n    return b.w * b.w\n"
              "r = [area_of(i) for i in range(5)]\n")
    scope, report = run(source, threshold=1)
    assert scope["r"] == [0, 1, 4, 9, 16]
    assert report["area_of"]["status"] == "native" and report["make"]["status"] == "python"
    assert type(scope["area_of"]).__name__ == "NativeFunction"


def test_a_key_lambdas_parameter_is_not_a_global():
    source = "p = 3\ndef f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=lambda p: -p)\n"
    assert sorted(hot.plan(source, set()).units) == ["f"]


def test_a_function_with_a_nested_helper_runs_natively(host):
    source = ("def f(xs: list[int], k: int) -> int:\n"
              "    def weigh(v: int) -> int:\n        return v * k\n"
              "    return sum(weigh(v) for v in xs)\n\n"
              "result = [f([1, 2, 3], i) for i in range(6)]\n")
    scope, report = run(source, threshold=2)
    assert scope["result"] == [6 * i for i in range(6)]
    assert report["f"]["status"] == "native" and report["f"]["fallbacks"] == 0


def test_a_closure_factory_runs_natively_for_python_and_native_callers(host):
    source = ("from typing import Callable\n"
              "def make_adder(n: int) -> Callable[[int], int]:\n"
              "    def add(x: int) -> int:\n        return x + n\n    return add\n\n"
              "def add_all(xs: list[int], n: int) -> list[int]:\n"
              "    add = make_adder(n)\n    n = 0\n    return [add(x) for x in xs]\n\n"
              "result = [add_all([1, 2], i) for i in range(4)] + [make_adder(5)(1), make_adder.__qualname__, "
              "make_adder(5).__qualname__]\n")
    scope, report = run(source, threshold=1)
    assert scope["result"] == [[1, 2], [2, 3], [3, 4], [4, 5], 6, "make_adder", "make_adder.<locals>.add"]
    assert report["add_all"]["status"] == "native" and report["add_all"]["fallbacks"] == 0
    assert report["make_adder"]["status"] == "native" and report["make_adder"]["fallbacks"] == 0
    assert "make_adder" not in hot.plan(source, set()).reasons


COUNTER = """from typing import Optional
TRACING = False
class Counter:
    def __init__(self) -> None:
        self.hits = 0
        self.last: Optional[Counter] = None
counter = Counter()
def log(x: int) -> None:
    input(x)
def bump(n: int) -> int:
    for i in range(n):
        counter.hits += 1
        if TRACING:
            log(i)
    return counter.hits
"""


def test_a_module_instance_lasts_from_call_to_call_natively(host, tmp_path):
    # `if TRACING:` with TRACING = False: input() and log() are in a branch CPython never takes.
    p = hot.plan(COUNTER, set())
    assert p.units["bump"].instances == ("counter",) and p.reasons["log"] == "line 9: does I/O or reflection (input)"
    assert "def log" not in p.units["bump"].source
    simple_compile(p.units["bump"].source, str(tmp_path / "bump.so"))
    bump = hot._loader.module_loader(str(tmp_path / "bump.so")).get_function("bump")
    assert [bump(3), bump(2)] == [3, 5]
    # Switching after Python calls changed the module's object would lose them: auto keeps Python.
    scope, report = run(COUNTER + "r = [bump(3), bump(2), bump(1)]\n", threshold=1)
    assert scope["r"] == [3, 5, 6] and report["bump"]["status"] == "python"
    assert report["bump"]["reason"].startswith("keeps the module-level instance counter natively")


def test_a_module_instance_python_code_sees_stays_python():
    p = hot.plan(COUNTER + "def peek() -> int:\n    print(counter.hits)\n    return 0\n", set())
    assert p.reasons["bump"] == "uses counter, a module-level instance Python code uses too"
    p = hot.plan(COUNTER + "seen = counter.hits\n", set())
    assert p.reasons["bump"] == "uses counter, a module-level instance Python code uses too"
    assert "bump" in hot.plan(COUNTER, set()).units


def test_a_class_may_name_a_later_class_in_its_methods():
    source = ("from typing import Optional\n"
              "class A:\n    def __init__(self) -> None:\n        self.b: Optional[B] = None\n"
              "def early() -> int:\n    return 1 if A().b is None else 0\n"
              "class B:\n    def __init__(self) -> None:\n        self.x = 1\n"
              "def late() -> int:\n    return 1 if A().b is None else 0\n")
    p = hot.plan(source, set())
    assert p.reasons["early"] == "uses B, defined after it"
    assert "class B:" in p.units["late"].source


def test_a_program_using_heapq_and_format_specs_runs_natively(host):
    # heapq and bisect imports travel with the unit as math's do.
    source = ("import heapq\nfrom bisect import insort\nfrom typing import List\n"
              "def top(xs: List[int], k: int) -> str:\n"
              "    h: List[int] = []\n"
              "    for x in xs:\n"
              "        heapq.heappush(h, -x)\n"
              "    out: List[int] = []\n"
              "    for _ in range(min(k, len(h))):\n"
              "        insort(out, -heapq.heappop(h))\n"
              "    return ', '.join(f'{v:>4d}' for v in out) + f' ({sum(out) / max(len(out), 1):.2f})'\n"
              "r = top([5, 1, 9, 3, 7], 3)\n")
    scope, report = run(source, threshold=1)
    assert report["top"]["status"] == "native", report["top"]
    assert scope["r"] == "   5,    7,    9 (7.00)"
    assert type(scope["top"]).__name__ == "NativeFunction" and scope["top"]([2, 2], 5) == "   2,    2 (2.00)"


def test_a_program_using_dataclasses_and_defaultdict_runs_natively(host):
    # The class travels with its decorator (ast leaves decorators out of a class's source segment).
    source = ("from collections import defaultdict\nfrom dataclasses import dataclass, field\n"
              "from typing import Dict, List, NamedTuple\n\n\n"
              "@dataclass(frozen=True)\nclass Sale:\n    item: str\n    amount: int = 1\n\n\n"
              "class Pair(NamedTuple):\n    left: int\n    right: int = 0\n\n\n"
              "@dataclass\nclass Ledger:\n    sales: List[Sale] = field(default_factory=list)\n\n"
              "    def record(self, item: str, amount: int) -> None:\n"
              "        self.sales.append(Sale(item, amount=amount))\n\n\n"
              "def totals(items: List[str]) -> Dict[str, int]:\n"
              "    ledger = Ledger()\n"
              "    for i, it in enumerate(items):\n"
              "        ledger.record(it, i + 1)\n"
              "    by_item: Dict[str, int] = defaultdict(int)\n"
              "    for s in ledger.sales:\n"
              "        by_item[s.item] += Pair(s.amount).left + Pair(0, right=0).right\n"
              "    return dict(by_item)\n\n\n"
              "r = totals(['a', 'b', 'a'])\ns = Sale('x')\n")
    scope, report = run(source, threshold=1)
    assert report["totals"]["status"] == "native", report["totals"]
    assert scope["r"] == {"a": 4, "b": 2} and type(scope["r"]) is dict
    assert type(scope["totals"]).__name__ == "NativeFunction" and scope["totals"]([]) == {}
    assert repr(scope["s"]) == "Sale(item='x', amount=1)" and scope["s"] == scope["Sale"]("x")


def test_a_class_travels_with_its_decorators(host):
    # Compiled without its decorator, the class could be another one than CPython's.
    source = ("import typing\n\n\n@typing.final\nclass Box:\n"
              "    def __init__(self, w: int) -> None:\n        self.w = w\n\n\n"
              "def width(w: int) -> int:\n    return Box(w).w\n\n\nr = width(3)\n")
    p = hot.plan(source, set())
    assert "@typing.final\nclass Box:" in p.units["width"].source
    scope, report = run(source, threshold=1)
    assert report["width"]["status"] == "python" and "Decorator" in report["width"]["reason"], report["width"]
    assert scope["r"] == 3
