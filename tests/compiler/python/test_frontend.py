"""Frontend: every unsupported construct is rejected with its line, column
and construct name; the AST it builds can be inspected through the registry."""
import pytest
import spine_runtime

from native import CompileError, parse_module, to_cpp

REJECTED = [
    ("def f(x: int) -> int:\n    return x ** 2\n", 2, 11, "Pow"),
    ("def f(x: int) -> int:\n    return x & 1\n", 2, 11, "BitAnd"),
    ("def f(x: int) -> int:\n    y = [x]\n    return x\n", 2, 8, "List"),
    ("def f(x: str) -> int:\n    return 1\n", 1, 9, "Annotation"),
    ("def f(x) -> int:\n    return 1\n", 1, 6, "MissingAnnotation"),
    ("def f(x: int) -> int:\n    if x:\n        return 1\n", 1, 0, "MissingReturn"),
    ("def f(x: int) -> int:\n    if x:\n        y = 1\n    return y\n", 4, 11, "UnboundName"),
    ("def f(x: int) -> int:\n    x = 1.5\n    return 1\n", 2, 4, "TypeChange"),
    ("def f(x: int) -> float:\n    return x\n", 2, 4, "ReturnType"),
    ("def f(x: int) -> int:\n    for i in [1, 2]:\n        pass\n    return x\n", 2, 13, "ForIter"),
    ("def f(x: int) -> int:\n    for i in range(x):\n        pass\n    else:\n        pass\n    return x\n", 2, 4, "ForElse"),
    ("def f(x: int) -> int:\n    return print(x)\n", 2, 11, "Call"),
    ("def f(x: int) -> int:\n    return x if x else 1.0\n", 2, 11, "MixedIfExp"),
    ("def f(x: int, y: bool) -> int:\n    return x and y\n", 2, 11, "MixedBoolOp"),
    ("def f(x: int) -> int:\n    return x + 99999999999999999999\n", 2, 15, "BigIntLiteral"),
    ("def f(x: int) -> int:\n    a, b = x, x\n    return a\n", 2, 4, "AssignTarget"),
    ("def f(x: int) -> int:\n    return x in x\n", 2, 11, "In"),
    ("import os\n", 1, 0, "Import"),
    ("def f(x: int) -> int:\n    with x:\n        pass\n    return x\n", 2, 4, "With"),
    ("def f(x: int) -> int:\n    return g\n", 2, 11, "GlobalName"),
    ("def f(x: int) -> int:\n    for i in range(x, 0, 0):\n        pass\n    return x\n", 2, 25, "RangeStep"),
]


@pytest.mark.parametrize("source,line,col,construct", REJECTED, ids=[r[3] for r in REJECTED])
def test_rejected_with_position(source, line, col, construct):
    with pytest.raises(CompileError) as info:
        parse_module(source)
    assert (info.value.line, info.value.col, info.value.construct) == (line, col, construct)
    assert f"line {line}, column {col}: {construct}" in str(info.value)


def test_ast_is_inspectable():
    (f,) = parse_module("def add(a: int, b: int) -> int:\n    c = a + b\n    return c\n")
    get = spine_runtime.get_global("runtime.NodeGetAttr")
    names = spine_runtime.get_global("runtime.NodeGetAttrNames")
    assert list(names(f)) == ["name", "params", "defaults", "body", "ret_type"]
    assert get(f, "name") == "add"
    text = spine_runtime.get_global("ast.AsText")(f)
    assert text == "def add(a: int64, b: int64) -> int64:\n  c: int64 = (a + b)\n  return c"


def test_generated_cpp_has_module_protocol():
    cpp = to_cpp("def add(a: int, b: int) -> int:\n    return a + b\n")
    for symbol in ("add__c_api", "__mc_func_array__", "__mc_func_registry__", "__mc_closures_names__",
                   "__mc_module_ctx", "spine_cg::add_i"):
        assert symbol in cpp
    assert cpp.count("#include") == 1
