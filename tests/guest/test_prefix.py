"""Tests of guest/prefix.py: statement completeness, what is prepared, claims.

Run from the repository root:
    PYTHONPATH=guest /usr/bin/python3 -m pytest -q tests/guest/test_prefix.py
"""
import ast
import collections
import json
import random

import pytest

import prefix
from prefix import Prefix, _Splitter
from protocol import encode_request

MANIFEST = [
    {"name": "lookup", "speculative": True},
    {"name": "search", "speculative": True},
    {"name": "sleep", "speculative": True},
    {"name": "send"},                                  # effectful: never early
    {"name": "charge", "speculative": False},
]
INPUTS = {"a": "alpha", "b": {"c": 7}, "items": [1, 2, 3], "flag": True, "off": False,
          "n": 4, "text": "Hello World"}


class FakeHost:
    """Records prepared requests and returns increasing handles."""

    def __init__(self):
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        return len(self.requests)


def stream(src, chunks=None, inputs=None, manifest=MANIFEST):
    host = FakeHost()
    p = Prefix(INPUTS if inputs is None else inputs, manifest, host)
    for chunk in ([src] if chunks is None else chunks):
        p.feed(chunk)
    return p, host


def prepared(src, chunks=None, inputs=None, manifest=MANIFEST):
    """The prepared calls as (tool, args) pairs, in prepare order."""
    _, host = stream(src, chunks, inputs, manifest)
    return [(r["tool"], r["args"]) for r in map(json.loads, host.requests)]


def keys(src, **kw):
    """The `key` argument of each prepared call (most tests use lookup(key=...))."""
    return [args.get("key") for _, args in prepared(src, **kw)]


def bytewise(src):
    return list(src)


def statements(src, chunks):
    """Texts of the statements _Splitter reports complete."""
    sp = _Splitter()
    out = []
    for chunk in chunks:
        out += [src[a:b] for a, b, _ in sp.feed(chunk)]
    return out


# --- Statement completeness ---------------------------------------------------

COMPLETENESS = [
    # (source, the complete statements)
    ("x = 1\ny = 2\n", ["x = 1\n", "y = 2\n"]),
    ("x = 1\ny = 2", ["x = 1\n"]),                                   # last line, no newline
    ("x = (1,\n     2)\ny = [\n 3,\n]\n", ["x = (1,\n     2)\n", "y = [\n 3,\n]\n"]),
    ("x = (1,\n", []),                                               # open bracket
    ('d = """\nlookup(key=1)\nz = 2\n"""\nw = 1\n', ['d = """\nlookup(key=1)\nz = 2\n"""\n', "w = 1\n"]),
    ("d = '''a\n'''  # c\n", ["d = '''a\n'''  # c\n"]),
    ('d = """a""""b"\n', ['d = """a""""b"\n']),
    ('s = "a\\"b"\nt = \'\\\'\'\n', ['s = "a\\"b"\n', "t = '\\''\n"]),
    ('s = "(["\nt = 1\n', ['s = "(["\n', "t = 1\n"]),
    ("x = 1  # (lookup\ny = 2\n", ["x = 1  # (lookup\n", "y = 2\n"]),
    ("# it's a comment\nx = 1\n", ["x = 1\n"]),
    ("x = 1 + \\\n    2\ny = 3\n", ["x = 1 + \\\n    2\n", "y = 3\n"]),
    ("@dec\n@dec2(1)\ndef f():\n    pass\nx = 1\n", ["@dec\n@dec2(1)\ndef f():\n    pass\n", "x = 1\n"]),
    ("@dec\nclass A:\n    pass\n", []),                            # the class may continue
    ("if a:\n    x\nelif b:\n    y\nelse:\n    z\nw = 1\n",
     ["if a:\n    x\nelif b:\n    y\nelse:\n    z\n", "w = 1\n"]),
    ("if a:\n    x\nelse:\n    z\n", []),                           # more body may follow
    ("try:\n    x\nexcept E:\n    y\nelse:\n    z\nfinally:\n    f\nw = 1\n",
     ["try:\n    x\nexcept E:\n    y\nelse:\n    z\nfinally:\n    f\n", "w = 1\n"]),
    ("for i in x:\n    pass\nelse:\n    pass\nwhile y:\n    pass\nw = 1\n",
     ["for i in x:\n    pass\nelse:\n    pass\n", "while y:\n    pass\n", "w = 1\n"]),
    ("if a: x = 1\nelse: x = 2\ny = 3\n", ["if a: x = 1\nelse: x = 2\n", "y = 3\n"]),
    ("if a:\n    pass\nelsewhere = 1\n", ["if a:\n    pass\n", "elsewhere = 1\n"]),
    ("def f():\n    a = 1\n# dedented comment\n\n    return a\nx = 1\n",
     ["def f():\n    a = 1\n# dedented comment\n\n    return a\n", "x = 1\n"]),
    ('def f():\n    """\ncol 0 text\n"""\n    return 1\nx = 1\n',
     ['def f():\n    """\ncol 0 text\n"""\n    return 1\n', "x = 1\n"]),
    ("x = 1\r\ny = 2\r\n", ["x = 1\r\n", "y = 2\r\n"]),
    ("x = 1\ry = 2\r", ["x = 1\r"]),                                # a lone CR waits for the next char
    ("x = 1 + \\\r\n  2\r\nz = 3\n", ["x = 1 + \\\r\n  2\r\n", "z = 3\n"]),
    ("\fx = 1\n", ["x = 1\n"]),
    ("x = f\"{d['k']}\"\ny = rb'\\\\'\n", ["x = f\"{d['k']}\"\n", "y = rb'\\\\'\n"]),
    ("async def f():\n    pass\nx = 1\n", ["async def f():\n    pass\n", "x = 1\n"]),
    ("match p:\n    case 1:\n        pass\nx = 1\n", ["match p:\n    case 1:\n        pass\n", "x = 1\n"]),
    ("x = 1; y = 2\n", ["x = 1; y = 2\n"]),
    ("\n\n   \n# c\nx = 1\n\n", ["x = 1\n"]),
]


@pytest.mark.parametrize("src,expected", COMPLETENESS)
def test_completeness_whole_and_bytewise(src, expected):
    assert statements(src, [src]) == expected
    assert statements(src, bytewise(src)) == expected


@pytest.mark.parametrize("src,expected", COMPLETENESS)
def test_completeness_every_split(src, expected):
    for i in range(len(src) + 1):
        assert statements(src, [src[:i], src[i:]]) == expected, i


def test_complete_statements_parse_alone():
    for src, expected in COMPLETENESS:
        for text in expected:
            ast.parse(text)


def test_statement_is_prepared_exactly_when_complete():
    host = FakeHost()
    p = Prefix(INPUTS, MANIFEST, host)
    p.feed("x = lookup(key=inputs['a'])")
    assert host.requests == []                        # could still become inputs['a'] + 'z'
    p.feed("\n")
    assert host.requests == [encode_request("lookup", {"key": "alpha"})]
    p.feed("if inputs['flag']:\n    y = lookup(key=2)\n")
    assert len(host.requests) == 1                     # an elif/else may follow
    p.feed("else:\n    y = lookup(key=3)\n")
    assert len(host.requests) == 1
    p.feed("z = 1\n")
    assert host.requests[1:] == [encode_request("lookup", {"key": 2})]


def test_a_dangling_else_completes_the_statement():
    src = "if inputs['off']:\n    pass\nelse:\n    lookup(key='else')\nlookup(key='after')\n"
    assert keys(src) == ["else", "after"]
    for i in range(len(src) + 1):
        assert keys(src, chunks=[src[:i], src[i:]]) == ["else", "after"]


def test_brackets_across_lines_prepare_once_closed():
    src = "r = lookup(\n    key=inputs['b']['c'],\n)\n"
    assert keys(src) == [7]
    assert keys(src[:-2]) == []


def test_triple_quoted_code_is_not_code():
    src = 'doc = """\nlookup(key=1)\n"""\nlookup(key=2)\n'
    assert keys(src) == [2]
    assert keys(src, chunks=bytewise(src)) == [2]


# --- What is prepared --------------------------------------------------------

def test_constants_inputs_and_derived_names():
    src = (
        "k = inputs['b']['c']\n"
        "n = 3\n"
        "xs = [1, 2, k]\n"
        "lookup(key=1)\n"
        "lookup(key=inputs['a'])\n"
        "lookup(key=xs, n=n)\n"
        "lookup(key=k * 2 + n)\n"
        "lookup(key=inputs['a'] + '-' + str(k))\n"
        "lookup(key=f\"{inputs['a']}:{k:03d}\")\n"
        "lookup(key=inputs['items'][1:])\n"
        "lookup(key=len(inputs['items']))\n"
        "lookup(key=inputs.get('zz', 'dflt'))\n"
        "lookup(key=inputs['text'].lower().split())\n"
        "lookup(key={'q': k, 'r': [n]})\n"
    )
    assert keys(src) == [1, "alpha", [1, 2, 7], 17, "alpha-7", "alpha:007", [2, 3], 3, "dflt",
                         ["hello", "world"], {"q": 7, "r": [3]}]
    assert prepared(src)[2] == ("lookup", {"key": [1, 2, 7], "n": 3})


def test_requests_are_canonical():
    host = FakeHost()
    p = Prefix(INPUTS, MANIFEST, host)
    p.feed("search(z=1, a={'y': 2, 'b': 'é'})\n")
    assert host.requests == [encode_request("search", {"z": 1, "a": {"y": 2, "b": "é"}})]
    assert host.requests[0] == '{"args":{"a":{"b":"é","y":2},"z":1},"tool":"search"}'


def test_order_and_duplicates():
    src = "a = lookup(key=1)\nb = search(q=2)\nc = lookup(key=1)\n"
    assert prepared(src) == [("lookup", {"key": 1}), ("search", {"q": 2}), ("lookup", {"key": 1})]


def test_non_speculative_tools_are_never_prepared():
    src = "send(to=1)\ncharge(amount=inputs['n'])\nx = send(to=lookup(key=1))\n"
    # lookup reads nothing the effects write, so only the effects' own
    # speculative nature keeps them from starting.
    disjoint = [{"name": "lookup", "speculative": True, "reads": []},
                {"name": "send", "writes": ["outbox"]}, {"name": "charge", "writes": ["ledger"]}]
    assert prepared(src, manifest=disjoint) == [("lookup", {"key": 1})]
    # By default an effect writes everything: the lookup after it waits.
    assert prepared(src) == []


def test_tool_results_are_unknown():
    src = "x = lookup(key=1)\ny = lookup(key=x)\nz = lookup(key=x['v'] + 1)\nw = x\nlookup(key=w)\n"
    assert keys(src) == [1]


def test_nested_tool_calls():
    assert keys("lookup(key=lookup(key=1))\n") == [1]


def test_rebinding_makes_names_unknown():
    src = (
        "k = 1\n"
        "lookup(key=k)\n"
        "k = lookup(key=2)\n"
        "lookup(key=k)\n"          # k is a tool result now
        "k = 5\n"
        "lookup(key=k)\n"          # definitely 5 again
        "del k\n"
        "lookup(key=k)\n"
    )
    assert keys(src) == [1, 2, 5]


def test_conditional_assignment_is_unknown_after_the_branch():
    src = (
        "t = lookup(key=0)\n"
        "k = 1\n"
        "if t:\n"
        "    k = 2\n"
        "lookup(key=k)\n"
        "m = 1\n"
        "if t:\n"
        "    print(m)\n"
        "lookup(key=m)\n"           # not assigned in the branch: still 1
    )
    assert keys(src) == [0, 1]


def test_known_test_follows_the_taken_branch_only():
    src = (
        "if inputs['flag']:\n"
        "    k = lookup(key='yes')\n"
        "    m = 'taken'\n"
        "else:\n"
        "    k = lookup(key='no')\n"
        "lookup(key=m)\n"
    )
    assert keys(src) == ["yes", "taken"]


def test_unknown_test_prepares_both_branches():
    # Preparing on a path not taken costs one speculative call, never correctness.
    src = "t = lookup(key=0)\nif t:\n    lookup(key='a')\nelse:\n    lookup(key='b')\n"
    assert keys(src + "x = 1\n") == [0, "a", "b"]


def test_loops_and_for_targets():
    src = (
        "k = 1\n"
        "for k in range(3):\n"
        "    pass\n"
        "lookup(key=k)\n"                       # the target: unknown
        "for q in inputs['items']:\n"
        "    lookup(key=q * 10)\n"              # a known sequence: each iteration
        "t = lookup(key=0)\n"
        "for q in t:\n"
        "    lookup(key=q)\n"                   # unknown elements
        "    lookup(key='each')\n"              # known arguments in the body
        "x = 1\n"
    )
    assert keys(src) == [10, 20, 30, 0, "each"]


def test_comprehension_fan_out():
    src = ("r = [lookup(key=q) for q in inputs['items']]\n"
           "s = {q: search(q=q) for q in ['x', 'y'] if q != 'y'}\n"
           "t = [lookup(key=q) for q in lookup(key=0)]\n"
           "g = list(lookup(key=q) for q in [5])\n")
    assert prepared(src) == [("lookup", {"key": 1}), ("lookup", {"key": 2}), ("lookup", {"key": 3}),
                             ("search", {"q": "x"}), ("lookup", {"key": 0})]


def test_short_circuit_and_conditional_expressions():
    src = (
        "t = lookup(key=0)\n"
        "x = t and lookup(key=1)\n"
        "y = lookup(key=2) or lookup(key=3)\n"
        "z = lookup(key=4) if t else lookup(key=5)\n"
        "w = inputs['off'] and lookup(key=6)\n"
        "v = inputs['flag'] and lookup(key=7)\n"
        "u = lookup(key=8) if inputs['flag'] else lookup(key=9)\n"
    )
    assert keys(src) == [0, 2, 7, 8]


def test_function_bodies_are_not_prepared():
    src = "def f(x=lookup(key='default')):\n    return lookup(key=1)\ng = lambda: lookup(key=2)\ny = 1\n"
    assert keys(src) == ["default"]


def test_tool_name_rebound_before_the_call():
    assert keys("lookup = search\nlookup(key=1)\n") == []
    assert keys("def lookup(**kw):\n    return 1\nlookup(key=1)\n") == []
    assert keys("import json as lookup\nlookup(key=1)\n") == []
    assert keys("lookup = lookup(key=1)\n") == []
    # Rebound after the call: the call itself was still the tool.
    assert keys("lookup(key=1)\nlookup = 3\nlookup(key=2)\n") == [1]
    # A local of a function does not rebind the module's tool.
    assert keys("def f(lookup):\n    lookup = 2\nlookup(key=1)\n") == [1]


def test_only_keyword_arguments():
    assert keys("lookup(1)\nlookup(*[1])\nlookup(**{'key': 1})\nlookup(key=1)\n") == [1]


def test_builtins_only_when_not_rebound():
    assert keys("lookup(key=len('ab'))\n") == [2]
    assert keys("len = lambda s: 0\nlookup(key=len('ab'))\n") == []
    assert keys("def f():\n    global len\n    len = 0\nlookup(key=len('ab'))\n") == []
    # A tool named like a builtin is the tool, never the builtin.
    tools = MANIFEST + [{"name": "len", "speculative": True}]
    assert prepared("lookup(key=len(s='ab'))\n", manifest=tools) == [("len", {"s": "ab"})]


def test_global_declaration_makes_a_name_unknown_forever():
    src = "n = 1\ndef f():\n    global n\n    n = 2\nlookup(key=n)\nn = 3\nlookup(key=n)\n"
    assert keys(src) == []


def test_unknown_call_that_could_mutate_inputs():
    src = (
        "k = inputs['a']\n"
        "xs = [1, 2]\n"
        "foo(inputs)\n"
        "lookup(key=inputs['a'])\n"   # inputs may have changed
        "lookup(key=xs)\n"            # so may a known list
        "lookup(key=k)\n"             # a string cannot change without rebinding k
    )
    assert keys(src) == ["alpha"]


def test_method_calls_and_stores_mutate():
    src = (
        "inputs.update({'a': 'changed'})\n"
        "lookup(key=inputs['a'])\n"
    )
    assert keys(src) == []
    src = (
        "d = {'v': 1}\n"
        "d['v'] = 2\n"
        "lookup(key=d)\n"                   # d changed in place
        "lookup(key=inputs['a'])\n"         # inputs is another object: still known
        "xs = inputs['items']\n"
        "xs.append(4)\n"
        "lookup(key=inputs['items'])\n"     # the same list as xs
        "lookup(key=inputs['n'])\n"         # ... so inputs is forgotten entirely
        "results = []\n"
        "results.append(lookup(key='r'))\n"
        "lookup(key=results)\n"
    )
    assert keys(src) == ["alpha", "r"]


def test_augmented_assignment():
    src = "n = 1\nn += 2\nlookup(key=n)\ns = 'a'\ns += lookup(key=0)\nlookup(key=s)\n"
    assert keys(src) == [3, 0]
    src = "xs = inputs['items']\nxs += [9]\nlookup(key=inputs['items'])\nlookup(key=xs)\n"
    assert keys(src) == []


def test_reflection_forgets_everything_at_the_next_opaque_call():
    base = "k = 'v'\n{}\nfoo()\nlookup(key=k)\n"
    assert keys(base.format("pass")) == ["v"]
    assert keys(base.format("g = globals")) == []
    assert keys(base.format("import os")) == []
    assert keys(base.format("h = foo.__globals__")) == []
    assert keys(base.format("import math")) == ["v"]      # a harmless module


def test_user_classes_make_operations_on_unknowns_opaque():
    base = "{}t = lookup(key=0)\ny = t + 1\nlookup(key=inputs['a'])\n"
    assert keys(base.format("")) == [0, "alpha"]
    assert keys(base.format("class A:\n    pass\n")) == [0]


def test_walrus():
    assert keys("(k := inputs['n'])\nlookup(key=k)\n") == [4]
    assert keys("k = 1\nx = [y for y in [1] if (k := foo())]\nlookup(key=k)\n") == []


def test_star_import_stops_the_analysis():
    p, host = stream("lookup(key=1)\nfrom math import *\nlookup(key=2)\n")
    assert [json.loads(r)["args"]["key"] for r in host.requests] == [1]
    assert p.stopped


def test_unencodable_arguments_are_not_prepared():
    assert keys("lookup(key={1, 2})\nlookup(key=float('nan'))\nlookup(key=b'x')\nlookup(key=1)\n") == [1]


def test_prepare_returning_zero_or_raising():
    calls = []

    def host(request):
        calls.append(request)
        if len(calls) == 1:
            return 0
        raise RuntimeError("host is gone")

    p = Prefix(INPUTS, MANIFEST, host)
    p.feed("lookup(key=1)\nlookup(key=2)\nlookup(key=3)\n")
    assert len(calls) == 3
    assert p.unclaimed() == []


def test_prepare_cap():
    host = FakeHost()
    p = Prefix(INPUTS, MANIFEST, host, max_prepares=3)
    p.feed("".join(f"lookup(key={i})\n" for i in range(10)))
    assert len(host.requests) == 3


def test_prepared_calls_are_calls_the_program_makes():
    """For straight-line programs, what prefix prepares is a sub-multiset of
    what a real execution requests (the guesses were right)."""
    programs = [
        "k = inputs['b']['c']\nx = lookup(key=k)\ny = lookup(key=[k, inputs['a']])\nresult = [x, y]\n",
        "xs = inputs['items']\nfor q in xs:\n    lookup(key=q)\nxs.append(9)\nlookup(key=xs)\n",
        "d = {}\nd['a'] = lookup(key=1)\nlookup(key=len(d))\ns = inputs['text'][:5].upper()\nlookup(key=s)\n",
        "n = 0\nfor q in inputs['items']:\n    n += q\n    lookup(key=n)\nlookup(key=n)\n",
        "r = [search(q=q * 2) for q in inputs['items'] if q > 1]\nlookup(key=f\"{len(r)} {inputs['a']!r}\")\n",
        "def bump():\n    inputs['n'] = 99\nlookup(key=inputs['n'])\nbump()\nlookup(key=inputs['n'])\n",
        "t = inputs['n'] * 2 if inputs['flag'] else 0\nu = (t, 'x')\nlookup(key=u)\n",
    ]
    for src in programs:
        made = []

        def tool(name):
            def call(**args):
                made.append(encode_request(name, args))
                return 1
            return call

        scope = {"inputs": json.loads(json.dumps(INPUTS))}
        scope.update({spec["name"]: tool(spec["name"]) for spec in MANIFEST})
        exec(compile(src, "<test>", "exec"), scope)          # the test's oracle, not prefix
        _, host = stream(src + "pass\n")
        assert host.requests, src
        left = collections.Counter(made)
        left.subtract(host.requests)
        assert min(left.values()) >= 0, (src, host.requests, made)


# --- Chunking invariance ---------------------------------------------------------

PROGRAMS = [
    "k = inputs['a']\nx = lookup(key=k)\ny = search(q=inputs['b']['c'] + 1)\nresult = [x, y]\n",
    "@deco\ndef f(x=lookup(key=0)):\n    return lookup(key=x)\n\nclass C:\n    v = lookup(key='c')\n"
    "z = lookup(key='after')\n",
    "if inputs['flag']:\n    a = lookup(key=1)\nelif inputs['off']:\n    a = lookup(key=2)\nelse:\n"
    "    a = lookup(key=3)\nb = lookup(key=[1,\n  2,\n  3])\n",
    "try:\n    x = lookup(key='t')\nexcept Exception as e:\n    x = lookup(key='e')\nfinally:\n"
    "    lookup(key='f')\nlookup(key=x)\n",
    's = """\nlookup(key=1)\n"""\nt = \'it\\\'s\'\nlookup(key=s + t)  # comment (\nu = 1 + \\\n  2\nlookup(key=u)\n',
    "for q in inputs['items']:\n    search(q=q)\nelse:\n    lookup(key='done')\nr = [lookup(key=i) for i in [1, 2]]\n",
    "x = lookup(key=1)\r\nif x:\r\n    lookup(key=2)\r\nlookup(key=3)\r\n",
    "x = = 1\nlookup(key=1)\nif True:\nlookup(key=2)\n",           # syntax errors throughout
    "def f():\n  pass\n  lookup(key=1)\n lookup(key=2)\nlookup(key=3)\n",  # bad dedent
    "lookup(key='\\u00e9t\\u00e9')\nlookup(key='日本')\nlookup(key=\"\\x00\")\n",
    "match inputs['a']:\n    case 'alpha':\n        lookup(key='m')\n    case _:\n        pass\nlookup(key='z')\n",
    "lookup(key=1)\n    lookup(key=2)\nlookup(key=3)\n",                # unexpected indent
    "x = (\n lookup(key=1)\n",                                         # never closed
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_every_split_prepares_the_same(src):
    whole = stream(src)[1].requests
    assert stream(src, bytewise(src))[1].requests == whole
    for i in range(len(src) + 1):
        assert stream(src, [src[:i], src[i:]])[1].requests == whole, i


def test_random_splits_of_longer_programs():
    rng = random.Random(4)
    src = "".join(PROGRAMS[:7]) * 3
    whole = stream(src)[1].requests
    assert whole
    for _ in range(30):
        cuts = sorted(rng.sample(range(len(src)), 12))
        chunks = [src[a:b] for a, b in zip([0] + cuts, cuts + [len(src)])]
        assert stream(src, chunks)[1].requests == whole


def test_bytes_chunks_split_inside_a_character():
    src = "lookup(key='日本')\n".encode()
    p, host = stream(None, chunks=[src[i:i + 1] for i in range(len(src))])
    assert host.requests == [encode_request("lookup", {"key": "日本"})]
    assert p.source == "lookup(key='日本')\n"


# --- claim -------------------------------------------------------------------

def test_claim_is_exact_and_fifo_per_request():
    p, host = stream("lookup(key=1)\nlookup(key=2)\nlookup(key=1)\nsearch(q=1)\n")
    r1 = encode_request("lookup", {"key": 1})
    r2 = encode_request("lookup", {"key": 2})
    assert host.requests == [r1, r2, r1, encode_request("search", {"q": 1})]
    assert p.claim(r2) == 2                         # not the head of the queue
    assert p.claim(r1) == 1                         # first prepared first
    assert p.claim(encode_request("lookup", {"key": 3})) is None
    assert p.claim('{"tool": "lookup", "args": {"key": 1}}') is None   # not canonical: no match
    assert p.unclaimed() == [3, 4]
    assert p.claim(r1) == 3                         # the second identical call, second handle
    assert p.claim(r1) is None
    assert p.claim(None) is None
    assert p.unclaimed() == [4]
    assert p.close() == [4]
    assert p.unclaimed() == []
    assert p.claim(encode_request("search", {"q": 1})) is None
    p.feed("lookup(key=9)\n")                      # closed: nothing more
    assert len(host.requests) == 4


def test_source_inputs_manifest():
    chunks = ["x = ", "lookup(key=inputs['a'])", "\nresult = x"]
    p, _ = stream(None, chunks=chunks)
    assert p.source == "".join(chunks)
    assert p.inputs is INPUTS and p.manifest is MANIFEST
    assert INPUTS["items"] == [1, 2, 3]              # never mutated by the analysis


# --- No user code runs ---------------------------------------------------------

def test_no_user_code_runs(tmp_path):
    target = tmp_path / "touched"
    src = (
        f"open({str(target)!r}, 'w').write('x')\n"
        f"__import__('os').system('touch {target}')\n"
        "import os\n"
        "os._exit(1)\n"
        "try:\n    raise SystemExit(3)\nexcept BaseException:\n    pass\n"
        "1 / 0\n"
        "try:\n    while True:\n        pass\nexcept BaseException:\n    pass\n"
        "x = [i for i in iter(int, 1)]\n"
        "exec('import os; os._exit(2)')\n"
        "lookup(key='still here')\n"
    )
    for chunks in ([src], bytewise(src)):
        p, host = stream(src, chunks)
        assert not target.exists()
        assert host.requests == [encode_request("lookup", {"key": "still here"})]


def test_known_value_arithmetic_cannot_blow_up():
    src = (
        "a = 'x' * 10**12\n"
        "b = 2 ** 10**10\n"
        "c = 1 << 10**9\n"
        "s = 'y' * 60000\n"
        "for i in range(40):\n    s = s + s\n"
        "d = f'{1:>999999999}'\n"
        "e = '%999999999d' % 1\n"
        "f = 'ab'.replace('', 'c' * 60000)\n"
        "g = [0] * 10**9\n"
        "lookup(key=[a, b, c, d, e, f, g])\n"
        "lookup(key='ok')\n"
    )
    assert keys(src) == ["ok"]


# --- Robustness --------------------------------------------------------------

NASTY = [
    "(" * 100000,
    "x = " + "(" * 150 + ")" * 150 + "\nlookup(key=1)\n",
    "x = " + "-" * 100000 + "1\nlookup(key=1)\n",
    "x = " + "1+" * 50000 + "1\nlookup(key=1)\n",
    "x = " + "1+" * 400 + "1\nlookup(key=x)\nlookup(key=2)\n",
    "x = " + "[" * 90 + "1" + "]" * 90 + "\nlookup(key=x)\n",
    "if a:\n" + "".join(" " * i + "if b:\n" for i in range(1, 300)) + " " * 300 + "lookup(key=1)\nz = 1\n",
    "\x00\x00lookup(key=1)\n\x00",
    "lookup(key='\x00')\nlookup(key=2)\n",
    '"""' + "x\n" * 1000,
    "\\\n" * 100 + "x = 1\n",
    "\ud7ff\U0010ffff = 1\n\u2028\n\x0c\x0b\x1c\n",
    "lookup(key=1)\n" * 5 + "def f(:\n" + "lookup(key=2)\n" * 2000,
]


@pytest.mark.parametrize("src", NASTY)
def test_nasty_input_never_raises(src):
    for chunks in ([src], [src[i:i + 7] for i in range(0, len(src), 7)]):
        p, host = stream(src, chunks)
        for r in host.requests:
            json.loads(r)
        assert p.source == src


def test_random_garbage_never_raises():
    rng = random.Random(7)
    alphabet = list("abcdefif elsexcpt:=()[]{}'\"\\#\n\r\t @.,+*-0123456789") + ["\x00", "é", "\u2028", "lookup(key=1)\n"]
    for _ in range(300):
        src = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 120)))
        whole = stream(src)[1].requests
        cut = rng.randrange(len(src) + 1)
        assert stream(src, [src[:cut], src[cut:]])[1].requests == whole
        assert stream(src, bytewise(src))[1].requests == whole


def test_non_string_chunks_are_ignored():
    p, host = stream(None, chunks=[None, 5, "lookup(key=1)\n", ""])
    assert len(host.requests) == 1


# --- Incremental cost ----------------------------------------------------------

def big_program(lines=2000):
    parts = []
    i = 0
    while len(parts) < lines:
        parts += [
            f"k{i} = inputs['a'] + '{i}'\n",
            f"r{i} = lookup(key=k{i})\n",
            f"if r{i}:\n",
            f"    x{i} = [1, 2,\n",
            f"          {i}]\n",
            f"else:\n",
            f"    x{i} = '''doc\n",
            f"text'''\n",
            f"def f{i}(a):\n",
            f"    return a + {i}\n",
        ]
        i += 1
    return "".join(parts[:lines]) + "end = 1\n"


def test_parsing_work_is_linear():
    src = big_program(2000)
    assert src.count("\n") == 2001
    whole, host_whole = stream(src)
    bytes_, host_bytes = stream(src, bytewise(src))
    assert host_bytes.requests == host_whole.requests
    assert len(host_whole.requests) >= 200
    # Each complete statement is parsed once, whatever the chunking.
    assert bytes_.stats["parse_calls"] == whole.stats["parse_calls"]
    assert bytes_.stats["parse_calls"] <= src.count("\n")
    assert bytes_.stats["parsed_bytes"] <= len(src)
    assert bytes_.stopped is None


def test_unparseable_prefix_costs_linear_work():
    src = "x = = 1\n" + big_program(2000)
    p, host = stream(src, bytewise(src))
    assert p.stats["parsed_bytes"] <= 3 * len(src)
    assert p.stats["parse_calls"] <= prefix.MAX_RETRIES + 1
    assert host.requests == []
    assert p.stopped


def test_unclosed_bracket_parses_nothing():
    src = "x = (\n" + big_program(2000)
    p, _ = stream(src, bytewise(src))
    assert p.stats["parse_calls"] == 0


def test_buffer_does_not_keep_analysed_text():
    src = big_program(2000)
    p, _ = stream(src, bytewise(src))
    assert sum(len(c) for c in p._pending) < 200


def test_nested_loops_over_known_sequences_are_bounded():
    src = (f"M = {[str(i) for i in range(60)]!r}\n"
           "for a in M:\n    for b in M:\n        for c in M:\n            for d in M:\n"
           "                lookup(key=a + b + c + d)\nx = 1\n")
    p, host = stream(src)
    assert p.stats["iterations"] <= prefix.UNROLL_BUDGET
    assert 0 < len(host.requests) <= 256
    assert stream(src, bytewise(src))[1].requests == host.requests


def test_identity_is_known_only_for_singletons():
    assert keys("n = None\nlookup(key=n is None)\nlookup(key=inputs['flag'] is True)\n") == [True, True]
    assert keys("x = 5\ny = 5\nlookup(key=x is y)\nlookup(key=1)\n") == [1]


# --- Helper functions and lambdas: followed where their arguments are known ----

def test_a_helper_called_with_known_arguments_is_followed_into():
    src = ("def research(q, pages=2):\n    hits = lookup(key=q + '!')\n    return hits[:pages]\n"
           "research(inputs['a'])\nanswers = {q: research(q) for q in ['x', 'y']}\nresearch(later)\n"
           "y = 1\n")
    assert keys(src) == ["alpha!", "x!", "y!"]


def test_a_helper_body_sees_its_parameters_not_the_module_names_it_shadows():
    src = "q = 'module'\ndef f(q):\n    k = q\n    lookup(key=k)\n    lookup(key=pages)\nf('param')\ny = 1\n"
    assert keys(src) == ["param"]


def test_a_helper_is_followed_only_while_its_name_means_that_def():
    src = "def f(q):\n    lookup(key=q)\nf(1)\nf = print\nf(2)\ndef g(q):\n    lookup(key=q)\ng = 3\n"
    assert keys(src) == [1]


def test_a_recursive_helper_is_followed_a_bounded_depth():
    src = "def down(n):\n    lookup(key=n)\n    down(n - 1)\ndown(10)\ny = 1\n"
    assert keys(src) == [10, 9, 8]


def test_a_helper_writing_holds_back_the_reads_after_it():
    src = "def save(v):\n    send(v=v)\n    lookup(key='inner')\nsave(1)\nlookup(key='after')\n"
    assert keys(src) == []


@pytest.mark.parametrize("form", [
    "sorted(inputs['items'], key=lambda n: lookup(key=n))",
    "max(inputs['items'], key=lambda n: lookup(key=n))",
    "list(map(lambda n: lookup(key=n), inputs['items']))",
    "list(filter(lambda n: lookup(key=n), inputs['items']))",
])
def test_a_lambda_applied_to_a_known_sequence_is_followed_per_item(form):
    assert keys(f"r = {form}\n") == [1, 2, 3]


def test_a_lambda_over_an_unknown_sequence_prepares_nothing():
    assert keys("r = sorted(later, key=lambda n: lookup(key=n))\ny = 1\n") == []
