"""Optional[T] of a value type T: annotations (`Optional[int]`, `Union[int,
None]`, `int | None`), the None literal, and the few operations Python
defines on None itself (`is None`, `==`, truth). Every other use of an
Optional where a T is needed reads its value through `opt_value`, which
hands the call back to CPython when it is None: CPython then raises its
own exception with its own message (`unsupported operand type(s) for +:
'NoneType' and 'int'`). So narrowing needs no flow analysis: after `if x
is None: return ...` the value is simply never None, exactly as in CPython.

Only values are made Optional here (int, float, bool, str, containers);
a class reference can be nullable by other means, so nothing below
assumes the Optional is a flag and a value."""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import BOOL, E
from .typemodel import OBJECT, optional_of, pending

# The None literal before anything says which Optional it is (`x = None`, `return None`, `x is None`).
NONE_LITERAL = pending("optional")


def optional_members(node):
    """The members of an annotation that names a union (`Optional[X]` -> [X, None],
    `Union[X, None]`, `X | None`), or None if @p node is no union."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flat(node.left) + _flat(node.right)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if node.value.id == "Optional":
            if len(items) != 1:
                raise CompileError(node, "Annotation", "Optional[...] takes one type")
            return [items[0], ast.Constant(None)]
        if node.value.id == "Union":
            return [m for i in items for m in _flat(i)]
    return None


def _flat(node):
    inner = optional_members(node)
    return inner if inner is not None else [node]


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def optional_annotation(node, members, what, inner):
    """Optional[T] for a union of None and exactly one type T (@p inner types a member)."""
    values = [m for m in members if not _is_none(m)]
    types = {inner(m) for m in values}
    if not types:
        raise CompileError(node, "Annotation", f"{what}: only Optional[T] (None or one type) is native")
    if len(types) != 1 or OBJECT in types:  # a Union of several types, or with Any: a boxed value
        return OBJECT
    ty = types.pop()
    if ty.kind == "class":  # a class reference is nullable already: None is its null (inheritance.py)
        return ty
    return optional_of(ty)


def is_none_literal(e):
    return e.ty == NONE_LITERAL


def none_literal():
    return E(None, NONE_LITERAL, True)


def none_of(ty):
    """None as a value of the Optional type @p ty."""
    return E(ir.fn("ast.PrimCall")(ty.node, ir.fn("ast.Op")("opt_none"), []), ty, True)


def some(e):
    return ir.call_op("opt_some", [e], optional_of(e.ty), borrowed=e.borrowed)


def value_of(e):
    """The value of Optional @p e; None goes back to CPython (see the module docstring)."""
    return ir.call_op("opt_value", [e], e.ty.args[0], borrowed=e.borrowed)


def is_none(e):
    return ir.call_op("opt_is_none", [e], BOOL)


def coerce(e, want):
    """@p e as a value of @p want: a T or the None literal becomes an Optional[T]."""
    if want is None or want.kind != "optional" or e.ty == want:
        return e
    if is_none_literal(e):
        return none_of(want)
    if e.ty == want.args[0]:
        return some(e)
    return e


def dict_get(scope, d, key):
    """d.get(key): the value, or None if the key is absent (d, then key, evaluated once each)."""
    lets_d, dd = _bound(scope, d, "get")
    lets_k, kk = _bound(scope, key, "get")
    want = optional_of(d.ty.args[1])
    found = ir.call_op("contains", [dd, kk], BOOL)
    item = E(ir.fn("ast.ContainerGetItem")(dd.node, kk.node), d.ty.args[1], borrowed=d.borrowed)
    return _wrap(lets_d + lets_k, ir.if_then_else(found, some(item), none_of(want)))


def text(scope, e, value_text):
    """str(x) / f"{x}" of an Optional: "None", or the value's text."""
    lets, x = _bound(scope, e, "opt")
    return _wrap(lets, ir.if_then_else(is_none(x), ir.const_str("None"), value_text(value_of(x))))


def bool_op_type(values, is_and):
    """The type of `a or b` / `a and b` mixing Optional[T] and T operands, or None if they do
    not mix so: `x or default` is a T when the last operand is (a truthy x is never None);
    otherwise an operand that is returned may be None, so the result is Optional[T]."""
    inner = {v.ty.args[0] if v.ty.kind == "optional" else v.ty for v in values}
    if len(inner) != 1 or not any(v.ty.kind == "optional" for v in values):
        return None
    last = values[-1].ty
    return last if not is_and and last.kind != "optional" else optional_of(inner.pop())


def as_operand_result(e, ty):
    """@p e returned by `or`/`and` as a value of @p ty (a T only where @p e was found truthy)."""
    if ty.kind == "optional":
        return coerce(e, ty)
    return value_of(e) if e.ty.kind == "optional" else e


def _not(e):
    return E(ir.fn("ast.PrimNot")(e.node), BOOL)


def _bound(scope, e, hint):
    """(let-bindings, e or a temporary holding it) so @p e is evaluated once, in order."""
    if e.pure:
        return [], e
    t = scope.temp(hint, e.ty)
    return [(t, e)], E(t.node, t.ty, True, e.borrowed)


def _wrap(lets, body):
    for t, v in reversed(lets):
        body = ir.let(t, v, body)
    return body


def truth(scope, e, value_truth):
    """bool(x) of an Optional: None is false, else the value's truth."""
    lets, x = _bound(scope, e, "opt")
    return _wrap(lets, ir.binary("PrimAnd", _not(is_none(x)), value_truth(value_of(x)), BOOL))


def involves_none(a, b):
    return "optional" in (a.ty.kind, b.ty.kind) or is_none_literal(a) or is_none_literal(b)


def compare(scope, node, op, a, b, compare_values):
    """a OP b where either side is Optional or the None literal: `is`/`==` with None
    (`x is None`, `x == None` mean the same for value types), Optional == value,
    Optional == Optional; ordering reads the values (None goes back to CPython,
    which raises its TypeError). @p compare_values(op, x, y) compares two non-None values."""
    equality = isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot))
    negate = isinstance(op, (ast.NotEq, ast.IsNot))
    if not equality:
        x = value_of(a) if a.ty.kind == "optional" else a
        y = value_of(b) if b.ty.kind == "optional" else b
        if is_none_literal(x) or is_none_literal(y):
            raise CompileError(node, "CompareNone", "ordering comparison with None (a TypeError in Python)")
        return compare_values(op, x, y)
    if is_none_literal(a) and is_none_literal(b):
        result = ir.const_bool(True)
    elif is_none_literal(a) or is_none_literal(b):
        other = b if is_none_literal(a) else a
        if other.ty.kind == "optional":
            result = is_none(other)
        else:  # a value is never None; evaluated anyway for its errors
            t = scope.temp("opt", other.ty)
            result = ir.let(t, other, ir.const_bool(False))
        result = _not(result) if negate else result
        return result
    else:
        if isinstance(op, (ast.Is, ast.IsNot)):
            raise CompileError(node, "Is", "'is' between Optional values (only `is None` natively)")
        lets_a, x = _bound(scope, a, "opt")
        lets_b, y = _bound(scope, b, "opt")
        eq = ast.Eq()
        if x.ty.kind == "optional" and y.ty.kind == "optional":
            both_none = ir.binary("PrimAnd", is_none(x), is_none(y), BOOL)
            neither = ir.binary("PrimAnd", _not(is_none(x)), _not(is_none(y)), BOOL)
            same = ir.binary("PrimAnd", neither, compare_values(eq, value_of(x), value_of(y)), BOOL)
            result = ir.binary("PrimOr", both_none, same, BOOL)
        else:
            opt, val = (x, y) if x.ty.kind == "optional" else (y, x)
            present = _not(is_none(opt))
            pair = (value_of(opt), val) if opt is x else (val, value_of(opt))
            result = ir.binary("PrimAnd", present, compare_values(eq, *pair), BOOL)
        result = _wrap(lets_a + lets_b, result)
    return _not(result) if negate else result


# Evaluate-once operand binding, shared with boxed.py's operations.
bound, wrap = _bound, _wrap
