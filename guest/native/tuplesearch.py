"""x in (a, b, ...), t.count(x) and t.index(x) of a fixed tuple: x compared
with each field as CPython's tuple compares, identity first. Identity tells
only a NaN apart (the same NaN object is "equal" to itself): x is evaluated
once, and a float x that is NaN goes back to CPython; any other x is
identical to a field only if it is equal to it. Fields of another scalar
type than x compare by value (1 == 1.0); a str or tuple x only with fields
of its own type (its elements free of floats)."""
from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import E
from .typemodel import BOOL, FLOAT, INT

_VALUE_ERROR = 3  # SPINE_FAULT_VALUE


def _matches(scope, node, container, item, what):
    """(item's temporary, the tuple's temporary, the test of each field, the NaN guard or None)."""
    fields = container.ty.args
    comparable = lambda t: t == item.ty or (t.scalar and item.ty.scalar)
    if not fields or not all(comparable(t) for t in fields) or (item.ty.has_float and item.ty != FLOAT) or \
            not (item.ty.scalar or item.ty.kind in ("str", "tuple")):
        raise CompileError(node, "In" if what == "in" else "Method", f"{what} of {item.ty.text} in {container.ty.text}")
    x = scope.temp("in", item.ty)
    tup = scope.temp("in", container.ty)
    tests = [ir.binary("PrimEQ", x, E(ir.fn("ast.ContainerGetItem")(tup.node, ir.const_int(i).node), t), BOOL)
             for i, t in enumerate(fields)]
    guard = None
    if item.ty == FLOAT:
        nan = ir.binary("PrimNE", x, x, BOOL)
        guard = ir.if_then_else(nan, ir.call_op("raise_in_python", [], BOOL), ir.const_bool(False))
    return x, tup, tests, guard


def _wrap(scope, x, item, tup, container, guard, result, item_first=False):
    """@p result with its temporaries bound: for `in` the item first (the left operand), for a
    method the tuple first (the receiver)."""
    if guard is not None:
        result = ir.let(scope.temp("in_nan", BOOL), guard, result)
    if item_first:
        return ir.let(x, item, ir.let(tup, container, result))
    return ir.let(tup, container, ir.let(x, item, result))


def tuple_contains(scope, node, container, item):
    """item in (a, b, ...): item == a or item == b ..., item evaluated first (the left operand)."""
    x, tup, tests, guard = _matches(scope, node, container, item, "'in'")
    result = tests[-1]
    for test in reversed(tests[:-1]):
        result = ir.binary("PrimOr", test, result, BOOL)
    return _wrap(scope, x, item, tup, container, guard, result, item_first=True)


def tuple_count(scope, node, container, item):
    """t.count(x): how many fields equal x."""
    x, tup, tests, guard = _matches(scope, node, container, item, "tuple.count()")
    result = ir.call_op("int", [tests[0]], INT)
    for test in tests[1:]:
        result = ir.binary("PrimAdd", result, ir.call_op("int", [test], INT), INT)
    return _wrap(scope, x, item, tup, container, guard, result)


def tuple_index(scope, node, container, item):
    """t.index(x): the first field equal to x, else CPython's ValueError."""
    x, tup, tests, guard = _matches(scope, node, container, item, "tuple.index()")
    found = ir.const_int(-1)
    for i in reversed(range(len(tests))):
        found = ir.if_then_else(tests[i], ir.const_int(i), found)
    i = scope.temp("index", INT)
    missing = ir.binary("PrimLT", i, ir.const_int(0), BOOL)
    fault = ir.call_op("raise_text", [ir.const_int(_VALUE_ERROR), ir.const_str("tuple.index(x): x not in tuple")],
                       BOOL)
    checked = ir.let(scope.temp("index_found", BOOL), ir.if_then_else(missing, fault, ir.const_bool(False)), i)
    return _wrap(scope, x, item, tup, container, guard, ir.let(i, found, checked))
