"""pytest for the native plan a guest hands the host and reads back
(bootstrap._compiled, hot.Plan.shape/read): a child given a kept plan
neither parses nor plans the program. Same fake host as test_bootstrap.
    PYTHONPATH=guest:tests/programs /usr/bin/python3 -m pytest -q tests/guest
"""
import ast
import json
import sys

import pytest

from test_bootstrap import execute

import bootstrap  # noqa: E402  (test_bootstrap put the fake _spine in place)
import hot  # noqa: E402

_spine = sys.modules["_spine"]
EAGER = {"mode": "eager", "hot": 1000}
PROGRAM = '''
def square(x: int) -> int:
    return x * x

def shout(s):
    return s.upper()

result = [square(inputs["n"]), shout("a")]
'''


@pytest.fixture
def crossings(monkeypatch):
    """The native crossings the guest makes, answered with no unit."""
    seen = []

    def native(request):
        seen.append(json.loads(request))
        return b'{"units":[]}'
    monkeypatch.setattr(_spine, "native", native, raising=False)
    bootstrap._CODE_CACHE.clear()
    return seen


def test_asked_to_keep_its_plan_a_guest_hands_it_over_with_its_first_crossing(crossings):
    response, _, _ = execute(PROGRAM, {"n": 7}, native=EAGER, keep_plan=True)
    assert response["value"] == [49, "A"]
    assert [c["op"] for c in crossings] == ["start"]
    kept = crossings[0]["kept"]
    assert kept["python"] == sys.version and kept["helpers"] == [] and kept["transformed"] == ""
    assert kept["plan"]["functions"] == ["square", "shout"]
    assert [u["name"] for u in kept["plan"]["units"]] == ["square"]
    assert kept["plan"]["reasons"] == {"shout": "parameter s has no type annotation"}
    # The guest has no module loader here: it hands over no unit, only its plan.
    assert crossings[0]["units"] == []


def test_a_program_without_units_still_sends_its_start_when_asked_and_only_then(crossings):
    execute("result = 1", native=EAGER)
    assert crossings == []
    execute("result = 2", native=EAGER, keep_plan=True)
    assert [c["op"] for c in crossings] == ["start"]
    assert crossings[0]["kept"]["plan"] == {"functions": [], "units": [], "reasons": {}}


def test_a_kept_plan_runs_without_parsing_or_planning(crossings, monkeypatch):
    execute(PROGRAM, {"n": 7}, native=EAGER, keep_plan=True)
    kept = crossings[0]["kept"]

    def refuse(*args, **kwargs):
        raise AssertionError("parsed or planned again")
    monkeypatch.setattr(hot, "plan", refuse)
    monkeypatch.setattr(ast, "parse", refuse)
    bootstrap._CODE_CACHE.clear()
    response, _, _ = execute(PROGRAM, {"n": 5}, native=EAGER, compiled=kept, keep_plan=True)
    assert response["value"] == [25, "A"]
    # It made nothing, so it hands nothing over; its start still comes first.
    assert [c["op"] for c in crossings] == ["start", "start"] and "kept" not in crossings[1]


def test_the_kept_code_is_what_runs(crossings):
    execute("result = 'kept'", native=EAGER, keep_plan=True)
    other = crossings[0]["kept"]
    response, _, _ = execute(PROGRAM, {"n": 5}, native=EAGER, compiled=other)
    assert response["value"] == "kept"


@pytest.mark.parametrize("spoil", [
    lambda k: k.update(python="3.0.0"),
    lambda k: k.update(code="AAAA"),
    lambda k: k.update(code="not base64!"),
    lambda k: k["plan"].pop("units"),
    lambda k: k["plan"].update(units=[{"name": "square"}]),
    lambda k: k["plan"].update(reasons=[1, 2, 3]),
    lambda k: k.pop("plan"),
])
def test_a_kept_plan_the_guest_cannot_use_is_compiled_from_source(crossings, spoil):
    execute("result = 'kept'", native=EAGER, keep_plan=True)
    kept = crossings[0]["kept"]
    spoil(kept)
    response, _, _ = execute(PROGRAM, {"n": 5}, native=EAGER, compiled=kept, keep_plan=True)
    assert response["value"] == [25, "A"]
    # It compiled the program itself: it hands its own plan over.
    assert crossings[-1]["kept"]["plan"]["functions"] == ["square", "shout"]


def test_a_plan_reads_back_as_the_plan_it_was():
    plan = hot.plan(PROGRAM, {"lookup"})
    again = hot.Plan.read(json.loads(json.dumps(plan.shape())))
    assert again.functions == plan.functions and again.reasons == plan.reasons
    for name, unit in plan.units.items():
        other = again.units[name]
        assert (other.name, other.names, other.source, list(other.lines), other.instances) == \
            (unit.name, unit.names, unit.source, list(unit.lines), unit.instances)
        assert other.program_line(2) == unit.program_line(2)


def test_auto_mode_leaves_the_shared_plan_whole():
    source = '''
class Box:
    def __init__(self):
        self.n = 0

box = Box()

def bump(x: int) -> int:
    box.n += x
    return box.n
'''
    plan = hot.plan(source, set())
    assert list(plan.units) == ["bump"]
    h = hot.Hot(plan, {"mode": "auto"}, {})
    h.start()
    assert list(plan.units) == ["bump"] and h.units == {}
