"""Frontend: every unsupported construct is rejected with its line, column
and construct name; the AST it builds can be inspected through the registry;
check_eligible says per function why it cannot run natively."""
import pytest
import spine_runtime

from native import CompileError, check_eligible, parse_module, to_cpp

F = "def f(x: int) -> int:\n"
L = "def f(xs: list[int]) -> int:\n"

REJECTED = [
    # scalars
    (F + "    return x @ 2\n", 2, 11, "MatMult"),
    (F + "    return x & 1.5\n", 2, 11, "OperandType"),
    (F + "    return math.sqrt(x)\n", 2, 11, "GlobalName"),
    ("import math\n" + F + "    return math.hypot(x)\n", 3, 11, "Math"),
    ("from typing import FrozenSet\ndef f(x: FrozenSet[int]) -> int:\n    return 1\n", 2, 9, "Annotation"),
    ("N = 2 ** 70\n", 1, 4, "ModuleConstant"),
    ("N = [1]\n", 1, 4, "ModuleConstant"),
    ("N = '%0999999999d' % 1\n", 1, 4, "ModuleConstant"),
    ("N = 'ab' * 4096\n", 1, 4, "ModuleConstant"),
    ("N = 1 << 100\n", 1, 4, "ModuleConstant"),
    (F + "    try:\n        x = 1 // x\n    except ZeroDivisionError as e:\n        raise ValueError(e.args) from e\n"
     "    return x\n", 4, 4, "ExceptAs"),
    # (a def that is one return reads a rebound local as the lambda it equals, a lifted one a rebound
    # parameter, an annotated local or one of a scalar type as it is at the call: closures corpus)
    (F + "    y = [x]\n    def g(a: int) -> int:\n        b = a + y[0]\n        return b\n    return g(1)\n", 3, 4,
     "NestedCapture"),
    (F + "    def g(a: int) -> int:\n        b = a + x\n        return b\n    return sum([g(1) for x in range(2)])\n",
     2, 4, "NestedCapture"),
    (F + "    def g(a: int) -> int:\n        return a + x\n    return g\n", 4, 11, "Lambda"),
    (F + "    y = g(1)\n    def g(a: int) -> int:\n        return a + x\n    return y\n", 2, 8, "NestedFunction"),
    (F + "    def g(a: int) -> int:\n        return a + x\n    return g(a=1)\n", 4, 11, "NestedFunction"),
    (F + "    def g(a: int = 1) -> int:\n        return a\n    return g()\n", 2, 4, "NestedFunction"),
    (F + "    def g(a: int) -> int:\n        return h(a)\n    def h(a: int) -> int:\n        return a\n    return g(x)\n",
     2, 4, "NestedFunction"),
    (F + "    def g(a: int) -> int:\n        return a + x\n    def h(x: int) -> int:\n        return g(x)\n    return h(x)\n",
     4, 4, "NestedCapture"),
    (F + "    try:\n        y = x\n    finally:\n        x = y\n    return x\n", 5, 12, "UnboundName"),
    (F + "    try:\n        y = 1 // x\n    except ZeroDivisionError:\n        x = 0\n    else:\n        z = y\n"
     "    return z\n", 8, 11, "UnboundName"),
    (F + "    try:\n        x = 1\n    except ValueError as e:\n        x = len(e.args)\n    return x\n", 4, 4, "ExceptAs"),
    (F + "    try:\n        x = 1 // x\n    except (KeyError, ZeroDivisionError) as e:\n        return len(str(e))\n"
     "    return x\n", 4, 4, "ExceptAs"),
    (F + "    try:\n        x = 1 // x\n    except ZeroDivisionError as e:\n        try:\n            x = 2 // x\n"
     "        except ZeroDivisionError as e:\n            pass\n        return len(str(e))\n    return x\n", 4, 4, "ExceptAs"),
    (F + "    e = 1\n    try:\n        x = 1\n    except ValueError as e:\n        pass\n    return e\n", 5, 4, "ExceptAs"),
    ("def f(e: int) -> int:\n    try:\n        e = 1 // e\n    except ZeroDivisionError as e:\n        pass\n    return 0\n",
     4, 4, "ExceptAs"),
    ("e = 5\n" + F + "    try:\n        x = 1 // x\n    except ZeroDivisionError as e:\n        x = 0\n    return x + e\n", 5, 4,
     "ExceptAs"),
    (F + "    try:\n        y = 1 // x\n    except ValueError:\n        pass\n    return y\n", 6, 11, "UnboundName"),
    ("def f(x) -> int:\n    return 1\n", 1, 6, "MissingAnnotation"),
    (F + "    if x:\n        return 1\n", 1, 0, "MissingReturn"),
    (F + "    if x:\n        y = 1\n    return y\n", 4, 11, "UnboundName"),
    (F + "    x = 1.5\n    return 1\n", 2, 4, "TypeChange"),
    ("def f(x: int) -> float:\n    return x\n", 2, 4, "ReturnType"),
    (F + "    for i in range(x):\n        pass\n    else:\n        pass\n    return x\n", 2, 4, "ForElse"),
    (F + "    return print(x)\n", 2, 11, "Print"),
    (F + "    return x if x else 1.0\n", 2, 11, "MixedIfExp"),
    ("def f(x: int, y: bool) -> int:\n    return x and y\n", 2, 11, "MixedBoolOp"),
    (F + "    return x + 99999999999999999999\n", 2, 15, "BigIntLiteral"),
    (F + "    return x in x\n", 2, 11, "In"),
    ("import os\n", 1, 0, "Import"),
    (F + "    with x:\n        pass\n    return x\n", 2, 4, "With"),
    (F + "    return g\n", 2, 11, "GlobalName"),
    (F + "    for i in range(x, 0, 0):\n        pass\n    return x\n", 2, 25, "RangeStep"),
    (F + "    a = (b, c) = x\n    return a\n", 2, 4, "AssignTarget"),
    # annotations
    ("def f(x: set) -> int:\n    return 1\n", 1, 9, "BareContainer"),
    ("def f(x: dict[float, int]) -> int:\n    return 1\n", 1, 9, "KeyType"),
    ("def f(x: int | bytes) -> int:\n    return 1\n", 1, 15, "Annotation"),
    ("def f(x: int | None) -> int:\n    return x < None\n", 2, 11, "CompareNone"),
    ("def f(x: bytes) -> int:\n    return 1\n", 1, 9, "Annotation"),
    # containers and str
    (F + "    y = [1, 2.0]\n    return x\n", 2, 8, "MixedElements"),
    (F + "    y = []\n    return len(y)\n", 3, 15, "EmptyLiteral"),
    ("def f(x: int) -> int:\n    g = lambda v: v\n    h = [g]\n    return h\n", 4, 11, "FunctionValue"),
    ("def f(xs: list[int], x: int) -> list[int]:\n    g = lambda: x\n    return [g() for x in xs]\n", 3, 12,
     "LambdaCapture"),
    (F + "    return x[0]\n", 2, 11, "Subscript"),
    ("def f(d: dict[str, int]) -> int:\n    return len(d[1:])\n", 2, 15, "Slice"),
    ("def f(t: tuple[int, str], i: int) -> int:\n    return len(t[i])\n", 2, 15, "TupleIndex"),
    ("def f(s: str) -> str:\n    return s.casefold()\n", 2, 11, "Method"),
    ("def f(a: int | None, b: int | None) -> bool:\n    return a is b\n", 2, 11, "Is"),
    ("def f(d: dict[str, int]) -> int:\n    k = d.keys()\n    return 1\n", 2, 8, "DictView"),
    (F + "    r = range(x)\n    return x\n", 2, 8, "IterableOnly"),
    (L + "    g = (v for v in xs)\n    return 1\n", 2, 8, "GeneratorExp"),
    ("def f(a: list[float], b: list[float]) -> bool:\n    return a == b\n", 2, 11, "FloatContainerCompare"),
    ("def f(s: str) -> bool:\n    return s < 1\n", 2, 11, "CompareTypes"),
    (F + "    return x is x\n", 2, 11, "Is"),
    ("def f(n: float) -> str:\n    return f'{n:d}'\n", 2, 11, "FormatSpec"),
    (L + "    xs *= 2\n    return 1\n", 2, 4, "AugAssign"),
    (L + "    del xs\n    return 1\n", 2, 8, "Delete"),
    ("def f(d: dict[str, int]) -> int:\n    return sum(d)\n", 2, 11, "Builtin"),
    (L + "    return sorted(xs, key=lambda v: v / 2)[0]\n", 2, 26, "SortKey"),
    (L + "    return sorted(xs, key=print)[0]\n", 2, 26, "SortKey"),
    (L + "    r = len(xs) > 0\n    return sorted(xs, key=abs, reverse=r)[0]\n", 3, 39, "SortKey"),
    # arguments are read-only natively (they are copies)
    (L + "    xs.append(1)\n    xs = [2]\n    return 1\n", 2, 4, "BorrowedMutation"),
    ("def g(xs: list[int]) -> None:\n    xs.append(1)\n" + L + "    ys = xs\n    g(ys)\n    return 1\n", 5, 6,
     "BorrowedMutation"),
    (L + "    ys = xs\n    ys[0] = 1\n    return 1\n", 3, 4, "BorrowedMutation"),
    (L + "    ys = [xs]\n    return 1\n", 2, 10, "BorrowedStore"),
    ("def f(xs: list[int]) -> list[int]:\n    return xs\n", 2, 4, "ReturnBorrowed"),
    ("def f(g: list[list[int]]) -> int:\n    for row in g:\n        row.append(0)\n    return 1\n", 3, 8,
     "BorrowedMutation"),
    ("def f(s: set[int]) -> int:\n    s.add(1)\n    s = {2}\n    return 1\n", 2, 4, "BorrowedMutation"),
    ("def f(g: list[set[int]]) -> int:\n    for s in g:\n        s.discard(0)\n    return 1\n", 3, 8,
     "BorrowedMutation"),
    ("def f(s: set[int]) -> int:\n    t = s\n    t |= {1}\n    return 1\n", 3, 4, "BorrowedMutation"),
    # classes
    ("class A(dict):\n    x: int\n", 1, 8, "ClassBases"),
    ("class A:\n    x: int = 0\nclass B:\n    y: int = 0\nclass C(A, B):\n    z: int = 0\n", 5, 11, "ClassBases"),
    ("class A:\n    def m(self, k: int) -> int:\n        return k\nclass B(A):\n"
     "    def m(self, k: float) -> int:\n        return 1\n", 4, 0, "Override"),
    ("class A:\n    x: int = 0\nclass B(A):\n    y: int = 0\n", 1, 0, "FieldDefault"),
    ("class A:\n    def __init__(self) -> None:\n        self.x = 1\n        self.m()\n"
     "    def m(self) -> None:\n        pass\nclass B(A):\n    pass\n", 4, 8, "SelfInInit"),
    ("class A:\n    x: int = 0\n    def __getattr__(self, o: str) -> int:\n        return 1\n", 3, 4, "DunderMethod"),
    ("class N:\n    nxt: list['N']\n", 1, 0, "RecursiveClass"),
    ("class A:\n    def __init__(self) -> None:\n        self.x = abs(1)\n", 3, 8, "FieldType"),
    ("class A:\n    x: int = 0\n    def m(self) -> None:\n        self.y = 1\n", 4, 8, "UnknownField"),
    ("class A:\n    x: int\n    def __init__(self) -> None:\n        self.m()\n        self.x = 1\n"
     "    def m(self) -> None:\n        pass\n", 4, 8, "SelfInInit"),
    ("class A:\n    x: int\n    def __init__(self) -> None:\n        pass\n", 3, 4, "SelfInInit"),
    ("class A:\n    x: int\n", 1, 0, "FieldUnassigned"),
    ("class A:\n    items: list[int] = []\n", 2, 23, "FieldDefault"),
    ("def f(a: tuple[int, int]) -> int:\n    if a:\n        return 1\n    return 0\n", 2, 7, "Truthiness"),
]


@pytest.mark.parametrize("source,line,col,construct", REJECTED, ids=[f"{r[3]}-{i}" for i, r in enumerate(REJECTED)])
def test_rejected_with_position(source, line, col, construct):
    source += "" if "def f" in source else "def f(x: int) -> int:\n    return x\n"
    with pytest.raises(CompileError) as info:
        parse_module(source)
    assert (info.value.line, info.value.col, info.value.construct) == (line, col, construct), str(info.value)
    assert f"line {line}, column {col}: {construct}" in str(info.value)


def test_ast_is_inspectable():
    (f,) = parse_module("def add(a: int, b: int) -> int:\n    c = a + b\n    return c\n")
    get = spine_runtime.get_global("runtime.NodeGetAttr")
    names = spine_runtime.get_global("runtime.NodeGetAttrNames")
    assert list(names(f)) == ["name", "params", "defaults", "body", "ret_type", "writeback"]
    assert get(f, "name") == "add"
    text = spine_runtime.get_global("ast.AsText")(f)
    assert text == "def add(a: int64, b: int64) -> int64:\n  c: int64 = (a + b)\n  return c"


def test_container_ast_is_inspectable():
    src = ("def f(words: list[str]) -> dict[str, int]:\n    d: dict[str, int] = {}\n"
           "    for w in words:\n        d[w] = d.get(w, 0) + 1\n    return d\n")
    (f,) = parse_module(src)
    text = spine_runtime.get_global("ast.AsText")(f)
    assert text.splitlines()[0] == "def f(words: list[str]) -> dict[str, int64]:"
    assert "d: dict[str, int64] = {}" in text
    assert "d[w] = (d.get(w, 0) + 1)" in text
    get = spine_runtime.get_global("runtime.NodeGetAttr")
    ret = get(f, "ret_type")
    assert ret.type_name == "DictType"
    assert spine_runtime.get_global("ast.TypeText")(get(ret, "value_type")) == "int64"


def test_generated_cpp_has_module_protocol():
    cpp = to_cpp("def add(a: int, b: int) -> int:\n    return a + b\n")
    for symbol in ("add__c_api", "__mc_func_array__", "__mc_func_registry__", "__mc_closures_names__",
                   "__mc_module_ctx", "spine_cg::add_i"):
        assert symbol in cpp
    assert cpp.count("#include") == 1


def test_empty_literals_are_typed_by_their_first_use():
    src = ("def f(words: list[str]) -> int:\n    seen = set()\n    counts = {}\n    order = []\n"
           "    for w in words:\n        if w in seen:\n            counts[w] = counts.get(w, 0) + 1\n"
           "        seen.add(w)\n        order.append(len(w))\n    return len(counts) + sum(order)\n")
    (f,) = parse_module(src)
    text = spine_runtime.get_global("ast.AsText")(f)
    assert "seen: set[str] = set()" in text
    assert "counts: dict[str, int64] = {}" in text
    assert "order: list[int64] = []" in text


def test_check_eligible_reports_each_function():
    program = (
        "import json\n"
        "x = [1]\n"
        "y = 2 ** 10\n"
        "class P:\n    v: int = 0\n"
        "def ok(xs: list[int]) -> int:\n    return sum(xs)\n"
        "def mutates(xs: list[list[int]]) -> int:\n    xs.append([1])\n    return 1\n"
        "def internal(p: P) -> int:\n    return p.v\n"
        "def caller(xs: list[list[int]]) -> int:\n    return mutates(xs)\n"
        "def uses_global() -> int:\n    return x[0]\n"
        "def uses_constant() -> int:\n    return y\n")
    result = dict(check_eligible(program))
    assert list(result) == ["ok", "mutates", "internal", "caller", "uses_global", "uses_constant"]
    assert result["uses_constant"] is None
    assert result["ok"] is None
    assert "BorrowedMutation" in result["mutates"]
    assert "cannot cross" in result["internal"]
    assert "mutates() changes 'xs'" in result["caller"]
    assert "GlobalName" in result["uses_global"]
