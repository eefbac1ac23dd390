"""PLM fan-out decided when a loop or comprehension starts (guest/plm.py).

Each form: what the transform writes, and that the PLM run means what the
plain run means -- value, error, stdout and effects in order (`both` compares
them) -- with the calls prepared ahead and claimed. Uses the fake host of
test_plm.py.
"""
import pytest

from test_plm import MANIFEST, ToolError, both, early_starts, plm_text, run_program

STORE_MANIFEST = MANIFEST + [
    {"name": "get", "speculative": True, "reads": ["kv"]},
    {"name": "search", "speculative": True, "reads": ["web"]},
    {"name": "put", "speculative": False, "writes": ["kv"]},
]


def store_tools():
    """A key-value store whose reads show a write that came before them."""
    data = {"a": 1, "b": 2, "c": 3}

    def get(key=None, **_):
        if key not in data:
            raise ToolError(f"get: no key {key!r}")
        return data[key]

    def put(key=None, value=None, **_):
        data[key] = value
        return True

    def search(q=None, **_):
        return [f"{q}-1", f"{q}-2"]

    return {"get": get, "put": put, "search": search}


def run_both(source, **kwargs):
    kwargs.setdefault("manifest", STORE_MANIFEST)
    kwargs.setdefault("tools", store_tools())
    return both(source, **kwargs)


def fanned(text):
    """Fan-out decided when a loop (`_table`) or comprehension starts."""
    return "_spine_fan_table(lambda" in text or "_spine_fan(lambda" in text


# --- Loop bodies that use the item in other calls and mutate containers --------

def test_print_and_append_of_the_item_keep_their_order_and_calls_fan_out():
    source = ("out = []\nfor k in ['a', 'b', 'c']:\n    print('key', k)\n"
              "    out.append({'k': k, 'v': get(key=k)})\n    print('got', out[-1])\nresult = out\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "enumerate" in text
    plain, fast = run_both(source)
    assert fast.value == [{"k": "a", "v": 1}, {"k": "b", "v": 2}, {"k": "c", "v": 3}]
    assert fast.stdout == plain.stdout and "got" in fast.stdout
    assert len(early_starts(fast, "get")) == 3 and fast.host.hits == 3


def test_an_item_mutated_in_the_body_is_not_fanned_out():
    text, _ = plm_text("for k in inputs['ks']:\n    k.append(1)\n    r = echo(v=k)\n", STORE_MANIFEST)
    assert not fanned(text)


# --- Loops over runtime values ------------------------------------------------------

def test_loop_over_a_tool_result_fans_out_from_its_value():
    source = "hits = search(q='x')\nresult = []\nfor h in hits:\n    result.append(search(q=h))\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert fanned(text)
    plain, fast = run_both(source)
    assert fast.value == [["x-1-1", "x-1-2"], ["x-2-1", "x-2-2"]]
    assert len(early_starts(fast)) == 3 and fast.host.hits == 3


def test_loop_directly_over_a_tool_call_evaluates_it_once():
    source = "result = []\nfor h in search(q='x'):\n    result.append(search(q=h))\n"
    plain, fast = run_both(source)
    assert [s[1] for s in fast.host.starts].count({"q": "x"}) == 1
    assert fast.host.hits == 3


@pytest.mark.parametrize("iterable, items", [
    ("{'a': 1, 'b': 2}", ["a", "b"]),
    ("{'a': 1, 'b': 2}.keys()", ["a", "b"]),
    ("{'x': 'a', 'y': 'b'}.values()", ["a", "b"]),
    ("'ab'", ["a", "b"]),
    ("sorted(['b', 'a'])", ["a", "b"]),
])
def test_plain_runtime_iterables_fan_out(iterable, items):
    source = f"result = []\nfor k in {iterable}:\n    result.append(get(key=k))\n"
    plain, fast = run_both(source)
    assert [s[1]["key"] for s in early_starts(fast)] == items and fast.host.hits == len(items)


def test_an_iterable_that_is_not_plain_data_gets_no_prepares_and_is_consumed_once():
    source = ("def gen():\n    print('gen starts')\n    yield 'a'\n    print('gen middle')\n    yield 'b'\n"
              "result = []\nfor k in gen():\n    result.append(get(key=k))\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert fanned(text)
    plain, fast = run_both(source)
    assert fast.value == [1, 2] and early_starts(fast) == []
    assert fast.stdout == "gen starts\ngen middle\n"


def test_expression_iterable_is_evaluated_exactly_once():
    source = ("calls = []\ndef part(x):\n    calls.append(x)\n    return [x]\n"
              "result = []\nfor k in part('a') + part('b'):\n    result.append(get(key=k))\n"
              "result.append(calls)\n")
    plain, fast = run_both(source)
    assert fast.value == [1, 2, ["a", "b"]] and fast.host.hits == 2


def test_a_non_iterable_raises_the_plain_error():
    source = "n = 5\nfor k in n:\n    r = get(key=k)\n"
    plain, fast = run_both(source)
    assert fast.error == "TypeError: 'int' object is not iterable"


def test_zip_with_a_non_iterable_raises_the_plain_error():
    source = "for a, b in zip(['a'], 5):\n    r = get(key=a)\n"
    plain, fast = run_both(source)
    assert fast.error == plain.error == "TypeError: 'int' object is not iterable"


# --- Tuple targets, zip, enumerate ---------------------------------------------------

def test_zip_tuple_targets_fan_out():
    source = ("left = ['a', 'b']\nright = ['c', 'a']\nresult = []\nfor x, y in zip(left, right):\n"
              "    result.append((get(key=x), get(key=y)))\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_v" in text and "[0]" in text
    plain, fast = run_both(source)
    assert fast.value == [[1, 3], [2, 1]] and fast.host.hits == 4


def test_enumerate_with_start_keyword_and_print():
    source = ("for i, k in enumerate(['a', 'b'], start=1):\n    v = get(key=k)\n"
              "    print(f'{i}. {k} = {v}')\n")
    plain, fast = run_both(source)
    assert fast.stdout == "1. a = 1\n2. b = 2\n" and fast.host.hits == 2


def test_nested_tuple_target_over_dict_items():
    source = ("d = {'a': 'b', 'b': 'c'}\nresult = []\nfor n, (k, v) in enumerate(d.items()):\n"
              "    result.append([n, get(key=k), get(key=v)])\n")
    plain, fast = run_both(source)
    # enumerate over a dict view: its items are read ahead as they are
    assert fast.value == [[0, 1, 2], [1, 2, 3]] and fast.host.hits == 4


def test_item_that_does_not_unpack_raises_the_plain_error_mid_loop():
    source = ("result = []\nfor a, b in [('a', 'b'), ('c',)]:\n    print(a)\n    result.append(get(key=a))\n")
    plain, fast = run_both(source)
    assert fast.error == "ValueError: not enough values to unpack (expected 2, got 1)"
    assert fast.stdout == "a\n"


# --- break, continue, else, exceptions mid-loop --------------------------------------

def test_break_continue_and_else_keep_their_meaning():
    source = ("seen = []\nfor k in ['a', 'b', 'c', 'zz', 'q']:\n    if k == 'b':\n        continue\n"
              "    v = get(key=k)\n    seen.append(v)\n    if v == 3:\n        break\nelse:\n    seen.append('else')\n"
              "for k in ['a']:\n    seen.append(get(key=k))\nelse:\n    seen.append('done')\nresult = seen\n")
    plain, fast = run_both(source)
    assert fast.value == [1, 3, 1, "done"]


def test_tool_error_mid_loop_raises_where_plain_does_after_the_earlier_prints():
    source = "for k in ['a', 'missing', 'c']:\n    print(k)\n    v = get(key=k)\n    print(v)\n"
    plain, fast = run_both(source)
    assert fast.error == "RuntimeError: get: no key 'missing'"
    assert fast.stdout == "a\n1\nmissing\n"


# --- Effects order reads ----------------------------------------------------------------

def test_a_write_in_the_body_keeps_the_read_in_the_body():
    source = "result = []\nfor k in ['a', 'b']:\n    put(key=k, value=10)\n    result.append(get(key=k))\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert not fanned(text)
    plain, fast = run_both(source)
    assert fast.value == [10, 10]


def test_a_write_in_the_body_does_not_hold_back_a_read_of_another_resource():
    source = "result = []\nfor k in ['a', 'b']:\n    put(key=k, value=10)\n    result.append(search(q=k))\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert fanned(text) or "_spine_it" in text
    plain, fast = run_both(source)
    assert fast.host.hits == 2


def test_iterable_that_writes_is_evaluated_before_the_prepares():
    source = ("def fill():\n    put(key='a', value=99)\n    return ['a']\n"
              "result = [get(key=k) for k in fill()]\n")
    plain, fast = run_both(source)
    assert fast.value == [99] and fast.host.hits == 1


# --- Comprehensions and generator expressions -------------------------------------------

@pytest.mark.parametrize("expression, value, hits", [
    ("[get(key=k) for k in ks]", [1, 2, 3], 3),
    ("{k: get(key=k) for k in ks}", {"a": 1, "b": 2, "c": 3}, 3),
    ("sum(get(key=k) for k in ks)", 6, 3),
    ("sorted(get(key=k) for k in ks)", [1, 2, 3], 3),
    ("dict((k, get(key=k)) for k in ks)", {"a": 1, "b": 2, "c": 3}, 3),
    ("[get(key=k) for k in ks if k != 'b']", [1, 3], 2),
    ("[v for k, v in zip(ks, [get(key=k) for k in ks])]", [1, 2, 3], 3),
])
def test_comprehensions_fan_out(expression, value, hits):
    source = f"ks = ['a', 'b', 'c']\nresult = {expression}\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert fanned(text)
    plain, fast = run_both(source)
    assert fast.value == value and fast.host.hits == hits


def test_any_consumes_the_generator_partially_and_stops_where_plain_stops():
    source = "ks = ['a', 'b', 'c']\nresult = any(get(key=k) == 2 for k in ks)\n"
    plain, fast = run_both(source)
    assert fast.value is True and fast.host.hits == 2 and fast.host.unclaimed == 1
    assert [s[1] for s in plain.host.starts] == [{"key": "a"}, {"key": "b"}]


def test_exception_inside_a_comprehension_is_the_plain_one():
    source = "ks = ['a', 'nope', 'c']\nresult = [get(key=k) for k in ks]\n"
    plain, fast = run_both(source)
    assert fast.error == "RuntimeError: get: no key 'nope'"


def test_generator_kept_for_later_is_not_fanned_out_when_a_write_may_come_first():
    source = ("ks = ['a']\ng = (get(key=k) for k in ks)\nput(key='a', value=5)\nresult = list(g)\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert not fanned(text)
    plain, fast = run_both(source)
    assert fast.value == [5]


def test_generator_consumed_at_once_is_fanned_out_even_with_writes_elsewhere():
    source = ("ks = ['a', 'b']\nput(key='a', value=5)\nresult = sum(get(key=k) for k in ks)\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert fanned(text)
    plain, fast = run_both(source)
    assert fast.value == 7 and fast.host.hits == 2


# --- Programs with classes, imports and helper functions ---------------------------------

def test_a_class_no_longer_disables_the_transform():
    source = ("import json\nclass Agent:\n    def __init__(self):\n        self.notes = []\n"
              "    def note(self, x):\n        self.notes.append(x)\n"
              "a = Agent()\nfor k in ['a', 'b']:\n    a.note(json.dumps(get(key=k)))\nresult = a.notes\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "enumerate" in text
    plain, fast = run_both(source)
    assert fast.value == ["1", "2"] and fast.host.hits == 2


def test_a_method_that_writes_holds_back_every_later_read():
    source = ("class Store:\n    def save(self, v):\n        put(key='a', value=v)\n"
              "s = Store()\ns.save(42)\nresult = get(key='a')\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    lines = text.splitlines()
    assert min(n for n, line in enumerate(lines) if "_prepare('get'" in line) > \
        min(n for n, line in enumerate(lines) if "s.save(42)" in line)
    plain, fast = run_both(source)
    assert fast.value == 42


def test_an_operator_running_a_writing_method_holds_back_later_reads():
    source = ("class Acc:\n    def __add__(self, v):\n        put(key='a', value=v)\n        return self\n"
              "x = Acc()\nx = x + 7\nresult = get(key='a')\n")
    plain, fast = run_both(source)
    assert fast.value == 7


def test_class_bodies_get_no_prepares_but_methods_do():
    source = ("class C:\n    seed = get(key='a')\n    def f(self, k):\n        self.n = str(k)\n        return get(key=k)\n"
              "result = [C.seed, C().f('b')]\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "seed = get(key='a')" in text and "return _spine_resolve" in text
    plain, fast = run_both(source)
    assert fast.value == [1, 2]


def test_fanned_out_calls_inside_a_helper_function():
    source = ("def collect(keys):\n    out = []\n    for k in keys:\n        out.append(get(key=k))\n    return out\n"
              "result = collect(['a', 'b', 'c'])\n")
    plain, fast = run_both(source)
    assert fast.value == [1, 2, 3] and fast.host.hits == 3


def test_fanout_limit_applies_to_runtime_iterables():
    source = "result = [get(key=k) for k in ['a', 'b', 'c']]\n"
    plain, fast = run_both(source, fanout=2)
    assert fast.value == [1, 2, 3] and len(early_starts(fast)) == 2


def test_rebound_builtins_do_not_change_the_helper():
    source = ("list = tuple = zip = str = enumerate = None\nfor k in ['a']:\n    r = get(key=k)\n"
              "result = r\n")
    plain, fast = run_both(source)
    assert fast.value == 1 and fast.host.hits == 1


def test_plain_run_is_unchanged_when_nothing_qualifies():
    out = run_program("result = [1 for k in 'ab']\n", manifest=STORE_MANIFEST, plm=True, tools=store_tools())
    assert out.helpers == () and out.value == [1, 1]


def test_a_call_in_a_comprehensions_first_iterable_is_prepared_like_any_other():
    source = ("a = {x for x in search(q='a')}\nb = {x for x in search(q='b')}\n"
              "result = sorted(a | b)\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    lines = text.splitlines()
    first_use = min(n for n, line in enumerate(lines) if line.startswith("a = "))
    assert sum(1 for line in lines[:first_use] if "_prepare('search'" in line) == 2
    plain, fast = run_both(source)
    assert fast.value == ["a-1", "a-2", "b-1", "b-2"] and fast.host.hits == 2


def test_a_loop_near_the_recursion_limit_behaves_as_the_plain_loop():
    # The fan-out of a loop adds no frame where the plain loop has none: at
    # every depth up to the limit, the same depths enter the body and fail.
    source = ("import sys\nentered = []\n"
              "def deep(n, ks):\n    if n == 0:\n        out = []\n        for k in ks:\n"
              "            entered.append(k)\n            out.append(get(key=k))\n        return out\n"
              "    return deep(n - 1, ks)\n"
              "def probe(n):\n    try:\n        return deep(n, ['a', 'b'])\n    except RecursionError:\n"
              "        return 'deep'\n"
              "limit = sys.getrecursionlimit()\n"
              "result = [[probe(n) for n in range(limit - 60, limit)], len(entered)]\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert fanned(text)
    plain, fast = run_both(source)
    assert "deep" in fast.value[0] and [1, 2] in fast.value[0]


# --- Calls reached through a helper function, a method or a lambda: warmed --------

def warmed(text):
    return "_spine_warm(" in text


def test_a_helper_called_per_item_has_its_calls_warmed_and_claimed_by_request():
    source = ("def research(q, pages=2):\n    hits = search(q=q)[:pages]\n    print('hits', q, len(hits))\n"
              "    return hits\n"
              "result = {}\nfor q in ['x', 'y', 'z']:\n    result[q] = research(q)\n")
    text, helpers = plm_text(source, STORE_MANIFEST)
    assert warmed(text) and "_spine_warm" in helpers
    plain, fast = run_both(source)
    assert fast.value == {"x": ["x-1", "x-2"], "y": ["y-1", "y-2"], "z": ["z-1", "z-2"]}
    assert fast.stdout == plain.stdout
    assert len(early_starts(fast, "search")) == 3 and fast.host.hits == 3


def test_a_helper_in_a_comprehension_is_warmed_with_the_argument_it_receives():
    source = "def price(k):\n    return get(key=k) * 10\nresult = {k: price(k + '') for k in ['a', 'b', 'c']}\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_warm('get', \"{'key': _spine_v" in text
    plain, fast = run_both(source)
    assert fast.value == {"a": 10, "b": 20, "c": 30} and fast.host.hits == 3


def test_a_method_called_per_item_is_warmed_by_its_name():
    source = ("class Agent:\n    def __init__(self):\n        self.notes = []\n"
              "    def look(self, q):\n        self.notes.append(search(q=q)[0])\n        return len(self.notes)\n"
              "agent = Agent()\nfor q in ['x', 'y']:\n    agent.look(q)\nresult = agent.notes\n")
    plain, fast = run_both(source)
    assert fast.value == ["x-1", "y-1"]
    assert len(early_starts(fast, "search")) == 2 and fast.host.hits == 2


def test_a_helper_reading_what_the_loop_writes_is_not_warmed():
    # Effects order reads: iteration 2's get must follow iteration 1's put.
    source = ("def read(k):\n    return get(key=k)\n"
              "result = []\nfor k in ['a', 'a']:\n    put(key=k, value=len(result) + 5)\n    result.append(read(k))\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert not warmed(text)
    plain, fast = run_both(source)
    assert fast.value == [5, 6]


def test_a_helper_whose_call_reads_a_global_or_a_rebound_parameter_is_not_warmed():
    for body in ("    return get(key=prefix + k)\n", "    k = k + 'x'\n    return get(key=k)\n"):
        source = f"prefix = ''\ndef read(k):\n{body}result = [read(k) for k in ['a', 'b']]\n"
        text, _ = plm_text(source, STORE_MANIFEST)
        assert not warmed(text), body


def test_a_warmed_call_the_helper_does_not_make_is_never_claimed_and_changes_nothing():
    source = ("def maybe(k):\n    if k == 'b':\n        return get(key=k)\n    return None\n"
              "result = [maybe(k) for k in ['a', 'b']]\n")
    plain, fast = run_both(source)
    assert fast.value == [None, 2] and fast.host.hits == 1
    assert fast.host.unclaimed == 1       # the warm-up for 'a': cancelled by the host


def test_a_helper_raising_raises_at_the_same_point():
    source = ("def read(k):\n    print('reading', k)\n    return get(key=k)\n"
              "result = [read(k) for k in ['a', 'nope', 'c']]\n")
    plain, fast = run_both(source)
    assert "no key 'nope'" in fast.error and fast.stdout == "reading a\nreading nope\n"


@pytest.mark.parametrize("form", [
    "sorted(names, key=lambda n: get(key=n), reverse=True)",
    "max(names, key=lambda n: get(key=n))",
    "list(map(lambda n: get(key=n) * 2, names))",
    "[v for v in filter(lambda n: get(key=n) > 1, names)]",
    "sorted(names, key=lambda n: read(n))",
])
def test_a_lambda_applied_to_every_item_has_its_calls_warmed(form):
    source = f"def read(k):\n    return -get(key=k)\nnames = ['a', 'b', 'c']\nresult = {form}\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_fan_warm(lambda" in text
    plain, fast = run_both(source)
    assert len(early_starts(fast, "get")) == 3 and fast.host.hits == 3


def test_a_lazy_map_is_warmed_only_when_nothing_may_write_what_it_reads():
    source = "m = map(lambda n: get(key=n), ['a', 'b'])\nput(key='a', value=9)\nresult = list(m)\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_fan_warm" not in text
    plain, fast = run_both(source)
    assert fast.value == [9, 2]
    source = "m = map(lambda n: search(q=n), ['a', 'b'])\nput(key='a', value=9)\nresult = list(m)\n"
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_fan_warm" in text
    plain, fast = run_both(source)
    assert fast.host.hits == 2


def test_a_lambda_over_a_generator_consumes_it_once_and_warms_nothing():
    source = "result = sorted((k for k in ['b', 'a']), key=lambda n: get(key=n))\n"
    plain, fast = run_both(source)
    assert fast.value == ["a", "b"] and early_starts(fast) == []


# --- while loops working through a list ------------------------------------------------

@pytest.mark.parametrize("take", ["todo.pop(0)", "todo.pop()", "todo[len(seen)]"])
def test_a_worklist_while_loop_warms_every_item_it_starts_with(take):
    stop = "len(seen) < len(todo)" if "[" in take else "todo"
    source = (f"todo = ['a', 'b', 'c']\nseen = []\nwhile {stop}:\n    k = {take}\n    print('take', k)\n"
              "    seen.append(get(key=k))\n    if k == 'b':\n        todo.append('a')\nresult = seen\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_fan_warm(lambda" in text
    plain, fast = run_both(source)
    assert fast.stdout == plain.stdout
    assert fast.host.hits >= 3 and len(early_starts(fast, "get")) >= 3


def test_pagination_by_a_value_from_the_result_is_not_warmed():
    source = ("cursor = 'a'\nseen = []\nwhile cursor:\n    seen.append(get(key=cursor))\n"
              "    cursor = {'a': 'b', 'b': 'c'}.get(cursor)\nresult = seen\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_fan_warm" not in text
    plain, fast = run_both(source)
    assert fast.value == [1, 2, 3]


def test_a_worklist_loop_writing_what_it_reads_is_not_warmed():
    source = ("todo = ['a', 'a']\nseen = []\nwhile todo:\n    k = todo.pop()\n    put(key=k, value=len(seen) + 5)\n"
              "    seen.append(get(key=k))\nresult = seen\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "_spine_fan_warm" not in text
    plain, fast = run_both(source)
    assert fast.value == [5, 6]


# --- Names the body binds to pure expressions of the item; `if` tests --------------

def test_a_name_the_body_binds_to_a_pure_expression_of_the_item_is_forwarded():
    source = ("result = []\nfor k in ['a', 'b', 'c']:\n    key = k.upper().lower()\n    full = key + ''\n"
              "    print('get', full)\n    result.append(get(key=full))\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "{'key': _spine_v" in text and ".upper().lower() + ''}" in text
    plain, fast = run_both(source)
    assert fast.value == [1, 2, 3] and fast.host.hits == 3 and len(early_starts(fast, "get")) == 3


def test_a_name_bound_twice_or_after_the_call_is_not_forwarded():
    for body in ("    key = k\n    key = key + ''\n    r = get(key=key)\n",
                 "    r = get(key=key)\n    key = k\n"):
        source = f"key = 'a'\nfor k in ['a', 'b']:\n{body}"
        text, _ = plm_text(source, STORE_MANIFEST)
        assert not fanned(text), body


def test_a_call_under_an_if_is_prepared_only_for_the_items_whose_test_holds():
    source = ("result = []\nfor k in ['a', 'x', 'b']:\n    if k != 'x':\n        result.append(get(key=k))\n"
              "    else:\n        result.append(None)\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "!= 'x' else None" in text
    plain, fast = run_both(source)
    assert fast.value == [1, None, 2]
    assert [s[1] for s in early_starts(fast, "get")] == [{"key": "a"}, {"key": "b"}]   # none for 'x'


def test_a_recursive_helper_warms_the_next_level_for_entries_that_pass_its_test():
    tree = {"/": ["a/", "f"], "/a": ["g"]}
    tools = dict(store_tools(), search=lambda q=None, **_: tree[q])
    source = ("def walk(p):\n    found = []\n    for e in search(q=p):\n        full = p.rstrip('/') + '/' + e.rstrip('/')\n"
              "        if e.endswith('/'):\n            found.extend(walk(full))\n        else:\n"
              "            found.append(full)\n    return found\nresult = walk('/')\n")
    plain, fast = run_both(source, tools=tools)
    assert fast.value == ["/a/g", "/f"]
    assert [s[1]["q"] for s in early_starts(fast, "search")] == ["/a"]     # not "/f": its test fails
    assert fast.host.hits == 1


def test_a_helper_calling_a_helper_is_warmed_through_both():
    source = ("def fetch_one(key):\n    return get(key=key)\ndef answer(q):\n    print('answering', q)\n"
              "    return fetch_one(q) * 2\nresult = [answer(q) for q in ['a', 'b', 'c']]\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert warmed(text)
    plain, fast = run_both(source)
    assert fast.value == [2, 4, 6] and fast.host.hits == 3


def test_a_recursive_helper_does_not_recurse_the_transform():
    source = "def f(k, n):\n    return get(key=k) if n == 0 else f(k, n - 1)\nresult = [f(k, 2) for k in ['a', 'b']]\n"
    plain, fast = run_both(source)
    assert fast.value == [1, 2]


def test_a_dispatch_table_of_lambdas_warms_only_the_entry_each_item_selects():
    source = ("table = {'get': lambda a: get(key=a), 'search': lambda a: search(q=a)[0]}\n"
              "plan = [('get', 'a'), ('search', 'x'), ('get', 'b')]\n"
              "result = [table[kind](arg) for kind, arg in plan]\n")
    text, _ = plm_text(source, STORE_MANIFEST)
    assert "== 'get' else None" in text and "== 'search' else None" in text
    plain, fast = run_both(source)
    assert fast.value == [1, "x-1", 2] and fast.host.hits == 3
    assert sorted(s[0] for s in early_starts(fast)) == ["get", "get", "search"]      # none wasted
