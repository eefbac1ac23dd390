"""guest/hot.py's rule for boxed values: a function whose parameters or return hold boxed
values in a container (a bare list/dict/tuple, List[Any], Dict[str, Any]) keeps CPython's
version for Python callers (natively such an argument is read entry by entry into boxes,
slower than CPython itself), and is compiled into the units of its typed callers, which call
it natively. A single boxed value (Any, a Union) leaves its function native.

It lives beside test_hot.py because it needs the real frontend (its FakeHost compiles)."""
import ast
import json

import pytest

from test_hot import hot, host, run  # noqa: F401  (host is a fixture)
from native.typemodel import OBJECT
from native.typerules import annotation_type

REASON = ("takes or returns boxed values in containers ({}): called from Python it runs slower natively than "
          "in CPython; native callers still call it natively")

PROGRAM = (
    "from typing import Any, Dict, List, Union\n"
    "def total(xs: list) -> int:\n"
    "    s = 0\n"
    "    for x in xs:\n"
    "        if isinstance(x, int):\n"
    "            s += x\n"
    "    return s\n"
    "def count_ok(records: List[Dict[str, Any]]) -> int:\n"
    "    return sum(1 for r in records if r.get('status') == 'ok')\n"
    "def typed_total(n: int) -> int:\n"
    "    xs: list = []\n"
    "    for i in range(n):\n"
    "        xs.append(i if i % 2 else str(i))\n"
    "    return total(xs) * 2\n"
    "def scaled(x: Union[int, float], k: Any) -> float:\n"
    "    return float(x) * k\n"
    "def square(x: int) -> int:\n"
    "    return x * x\n"
)


def test_the_plan_keeps_boxed_containers_for_native_callers_only():
    p = hot.plan(PROGRAM, set())
    assert sorted(p.units) == ["scaled", "square", "typed_total"]
    assert p.reasons == {"total": REASON.format("list"), "count_ok": REASON.format("List[Dict[str, Any]]")}
    assert p.units["typed_total"].names == ["total", "typed_total"]


@pytest.mark.parametrize("mode", ["auto", "eager"])
def test_python_callers_run_cpython_and_typed_callers_run_natively(host, mode):  # noqa: F811
    source = PROGRAM + (
        "calls = [total([1, 'a', 2]) for _ in range(3)]\n"
        "oks = [count_ok([{'status': 'ok'}, {'id': 2}, {'status': 'ok', 'n': 1.5}]) for _ in range(3)]\n"
        "doubled = [typed_total(i) for i in range(5)]\n"
        "scales = [scaled(i, 0.5) for i in range(4)]\n"
        "squares = [square(i) for i in range(4)]\n"
        "kinds = [type(f).__name__ for f in (total, count_ok, typed_total, scaled, square)]\n")
    scope, report = run(source, threshold=1) if mode == "auto" else _run_eager(host, source)
    assert scope["calls"] == [3, 3, 3] and scope["oks"] == [2, 2, 2]
    assert scope["doubled"] == [0, 0, 2, 2, 8] and scope["scales"] == [0.0, 0.5, 1.0, 1.5]
    assert scope["squares"] == [0, 1, 4, 9]
    # (a) Python's callers keep CPython's function, and the report says why.
    assert scope["kinds"] == ["function", "function", "NativeFunction", "NativeFunction", "NativeFunction"]
    assert report["total"]["status"] == "python" and report["total"]["reason"] == REASON.format("list")
    assert report["count_ok"]["reason"] == REASON.format("List[Dict[str, Any]]")
    # (b) A typed caller runs the boxed helper natively: no call fell back to Python.
    assert report["typed_total"]["status"] == "native" and report["typed_total"]["fallbacks"] == 0
    # (c) Typed functions, and one taking single boxed values, still switch.
    for name in ("square", "scaled"):
        assert report[name]["status"] == "native" and report[name]["fallbacks"] == 0, report[name]


def _run_eager(host, source):  # noqa: F811
    """Eager mode with every unit compiled before the program runs (the stand-in answers
    `start` with cold units, where the Go host answers ready ones: they are built here)."""
    plan = hot.plan(source, set())
    scope = {"__name__": "__main__"}
    h = hot.Hot(plan, {"mode": "eager"}, scope)
    scope[hot.DECORATOR] = h.decorate
    h.start()
    h._take_all([host._build(name) for name in plan.units])
    exec(compile(hot.decorate(ast.parse(source), plan), "<spine>", "exec"), scope)
    return scope, {e["name"]: e for e in json.loads(h.report())}


# Annotations and what the frontend makes of them: None (typed), "box" (one boxed value),
# "entries" (a container of boxed values).
ANNOTATIONS = [
    ("int", None), ("list[int]", None), ("dict[str, list[float]]", None), ("Optional[int]", None),
    ("Union[int, None]", None), ("int | None", None), ("tuple[int, ...]", None), ("set[str]", None),
    ("Any", "box"), ("object", "box"), ("Union[int, str]", "box"), ("int | str | None", "box"),
    ("Optional[Union[int, float]]", "box"), ("Optional[int] | str", "box"), ("'Any'", "box"),
    ("Optional[Any]", "box"), ("Union[list, str]", "box"),
    ("list", "entries"), ("dict", "entries"), ("tuple", "entries"), ("list[Any]", "entries"),
    ("dict[str, Any]", "entries"), ("list[dict[str, Any]]", "entries"), ("tuple[int, list]", "entries"),
    ("Optional[list]", "entries"), ("dict[str, Union[int, str]]", "entries"), ("'list[object]'", "entries"),
]


@pytest.mark.parametrize("text,boxing", ANNOTATIONS)
def test_the_planners_rule_agrees_with_the_frontends_types(text, boxing):
    node = ast.parse(text, mode="eval").body
    ty = annotation_type(node, "x")
    frontend = "box" if ty == OBJECT else "entries" if _holds_object(ty) else None
    assert frontend == boxing
    assert hot._boxing(node) == boxing


def _holds_object(ty):
    return any(a == OBJECT or _holds_object(a) for a in ty.args)


def test_boxed_locals_and_single_boxes_leave_a_function_native():
    source = ("from typing import Any\n"
              "def f(n: int) -> int:\n    seen: list = []\n    seen.append(n)\n    return len(seen)\n"
              "def g(x: Any) -> Any:\n    return x\n"
              "def h(rows: 'list[dict]') -> int:\n    return len(rows)\n")
    p = hot.plan(source, set())
    assert sorted(p.units) == ["f", "g"] and p.reasons == {"h": REASON.format("'list[dict]'")}


COPIES = ("{} passes a typed container to {}(), whose parameter holds boxed values: natively every call copies "
          "it into CPython objects, slower than in CPython; native callers still call it natively")

COPYING = (
    "from typing import Any, Dict, List\n"
    "def total(xs: list) -> Any:\n"
    "    t: Any = 0\n"
    "    for x in xs:\n"
    "        t = t + x\n"
    "    return t\n"
    "def show(x: Any) -> str:\n"
    "    return f'<{x}>'\n"
    "def mean(xs: List[int]) -> Any:\n"
    "    return total(xs) / len(xs) if xs else None\n"
    "def spread(xs: List[int]) -> Any:\n"
    "    return mean(xs)\n"
    "def squares(n: int) -> Any:\n"
    "    return total([i * i for i in range(n)])\n"
    "def shown(n: int) -> str:\n"
    "    seen: Dict[str, int] = {'n': n}\n"
    "    return show(seen)\n"
    "def own_list(n: int) -> Any:\n"
    "    xs: list = []\n"
    "    for i in range(n):\n"
    "        xs.append(i)\n"
    "    return total(xs)\n"
    "def shown_int(n: int) -> str:\n"
    "    return show(n * 2)\n"
)


def test_typed_containers_copied_into_boxes_keep_their_callers_python():
    p = hot.plan(COPYING, set())
    # A bare list the function fills itself, and a single value into Any, are not copies.
    assert sorted(p.units) == ["own_list", "show", "shown_int"]
    assert p.reasons == {
        "total": REASON.format("list"),
        "mean": COPIES.format("it", "total"),  # a List[int] parameter
        "spread": COPIES.format("mean()", "total"),  # through what it calls
        "squares": COPIES.format("it", "total"),  # a comprehension native code builds typed
        "shown": COPIES.format("it", "show"),  # an annotated local into Any
    }


def test_callers_that_would_copy_run_cpython_with_its_answers(host):  # noqa: F811
    source = COPYING + (
        "values = [mean([1, 2, 4]), mean([]), spread([3]), squares(4), shown(5), own_list(4), shown_int(3)]\n"
        "kinds = [type(f).__name__ for f in (mean, spread, squares, shown, own_list, shown_int)]\n")
    scope, report = _run_eager(host, source)
    assert scope["values"] == [7 / 3, None, 3.0, 14, "<{'n': 5}>", 6, "<6>"]
    assert scope["kinds"] == ["function"] * 4 + ["NativeFunction"] * 2
    assert report["spread"]["status"] == "python" and report["spread"]["reason"] == COPIES.format("mean()", "total")
    assert report["own_list"]["status"] == "native" and report["own_list"]["fallbacks"] == 0
