"""Boxed values (kind "object"): `Any`, `object`, `Union[A, B, ...]` and the
elements of a bare `list` / `dict`. Natively a boxed value is a strong
reference to the CPython object itself (codegen/boxed.h), and every
operation on one is CPython's own (its abstract object API), so results,
exceptions and messages are CPython's by construction; an exception crosses
back into Python as it is.

A typed value meeting a boxed one is boxed first (`x + 1` with x boxed is
PyNumber_Add(x, 1)); a boxed value where a typed one is needed (an annotated
variable, a typed parameter, `range(x)`) is read as that type when it is
exactly one (an int within int64, as arguments are read); otherwise the call
goes back to CPython, which computes it with the value as it is.

Only CPython callers run such functions: without CPython there is no object
to box (the loader's table has no `boxed`), so the call is refused with a
type mismatch, never run."""
import ast

from . import irbuilder as ir
from . import optional
from .errors import CompileError
from .irbuilder import BOOL, E, FLOAT, INT, STR
from .nesting import called_names
from .typemodel import OBJECT, list_of

# Operator codes of codegen/boxed.h (SpineBoxBinary, the unary order, Py_LT.. Py_GE, SpineBoxClass).
BINARY = {ast.Add: 0, ast.Sub: 1, ast.Mult: 2, ast.Div: 3, ast.FloorDiv: 4, ast.Mod: 5, ast.Pow: 6,
          ast.BitAnd: 7, ast.BitOr: 8, ast.BitXor: 9, ast.LShift: 10, ast.RShift: 11}
UNARY = {ast.USub: 0, ast.UAdd: 1, ast.Invert: 2}
COMPARE = {ast.Lt: 0, ast.LtE: 1, ast.Eq: 2, ast.NotEq: 3, ast.Gt: 4, ast.GtE: 5}
CLASSES = {"int": 0, "float": 1, "str": 2, "bool": 3, "list": 4, "dict": 5, "tuple": 6, "set": 7}


def is_boxed(e):
    return e.ty == OBJECT


def box(node, e):
    """@p e as a Python object (the same object for a boxed value)."""
    if e.ty == OBJECT:
        return e
    if optional.is_none_literal(e):
        return ir.call_op("box_none", [], OBJECT)
    if e.ty.kind in ("class", "iterator", "pending", "none"):
        raise CompileError(node, "Boxed", f"a {e.ty.text} value cannot be boxed natively")
    return ir.call_op("box_of", [e], OBJECT)


def unbox(e, want):
    """The boxed @p e read as a @p want (exactly that type, else CPython computes the call)."""
    return E(ir.fn("ast.PrimCall")(want.node, ir.fn("ast.Op")("box_unbox"), [e.node]), want)


def coerce(node, e, want):
    """@p e as a value of @p want where one side is boxed; else @p e unchanged."""
    if want is None or e.ty == want:
        return e
    if want == OBJECT and (e.ty.kind != "pending" or optional.is_none_literal(e)):
        return box(node, e)
    if e.ty == OBJECT and want.kind not in ("pending", "none", "iterator", "class"):
        return unbox(e, want)
    return e


def _call(scope, code, values):
    """(let-bindings, operands): @p values evaluated once each, left to right, after the int @p code."""
    lets, names = [], []
    for v in values:
        more, name = optional.bound(scope, v, "box")
        lets += more
        names.append(name)
    return lets, ([ir.const_int(code)] if code is not None else []) + names


def binary(scope, node, op_type, a, b, inplace=False):
    """a OP b (a OP= b if @p inplace) with a boxed operand: CPython's operator on the two objects."""
    code = BINARY.get(op_type)
    if code is None:
        raise CompileError(node, op_type.__name__)
    if inplace:
        code += len(BINARY)  # the in-place operators follow the plain ones (SpineBoxBinary)
    lets, args = _call(scope, code, [box(node, a), box(node, b)])
    return optional.wrap(lets, ir.call_op("box_binary", args, OBJECT))


def unary(node, op_type, a):
    if op_type not in UNARY:
        raise CompileError(node, op_type.__name__)
    return ir.call_op("box_unary", [ir.const_int(UNARY[op_type]), a], OBJECT)


def truth(e):
    return ir.call_op("box_truth", [e], BOOL)


def compare(scope, node, op, a, b):
    """a OP b with a boxed operand: `is` by identity, the others as CPython compares (its truth)."""
    lets, (x, y) = _call(scope, None, [box(node, a), box(node, b)])
    if isinstance(op, (ast.Is, ast.IsNot)):
        result = ir.call_op("box_is", [x, y], BOOL)
        if isinstance(op, ast.IsNot):
            result = E(ir.fn("ast.PrimNot")(result.node), BOOL)
        return optional.wrap(lets, result)
    code = COMPARE.get(type(op))
    if code is None:
        raise CompileError(node, type(op).__name__)
    return optional.wrap(lets, ir.call_op("box_compare", [ir.const_int(code), x, y], BOOL))


def contains(scope, node, container, item):
    """item in container, one of them boxed: CPython's `in` (item evaluated first)."""
    lets, (x, c) = _call(scope, None, [box(node, item), box(node, container)])
    return optional.wrap(lets, ir.call_op("box_contains", [c, x], BOOL))


def getitem(scope, node, obj, index):
    lets, args = _call(scope, None, [obj, box(node, index)])
    return optional.wrap(lets, ir.call_op("box_getitem", args, OBJECT))


def setitem(scope, node, obj, index, value):
    """obj[index] = value on a boxed obj: CPython's own assignment (value, then obj, then index)."""
    lets, (v, o, k) = _call(scope, None, [box(node, value), obj, box(node, index)])
    return optional.wrap(lets, ir.call_op("box_setitem", [o, k, v], BOOL))


def text(scope, e, conversion, spec):
    """An f-string field or str() of a boxed value: format(x, spec), str(x) or repr(x)."""
    if conversion == ord("r"):
        return ir.call_op("box_repr", [e], STR)
    if conversion == ord("s") and not spec:
        return ir.call_op("box_str", [e], STR)
    value = e if conversion == -1 else ir.call_op("box_of", [ir.call_op("box_str", [e], STR)], OBJECT)
    return ir.call_op("box_format", [value, box(None, ir.const_str(spec))], STR)


def method(scope, node, obj, name, args):
    """obj.name(args...) on a boxed obj: looked up and called by CPython."""
    if len(args) > 7:
        raise CompileError(node, "Method", "a method call on a boxed value with more than 7 arguments")
    lets, values = _call(scope, None, [obj] + [box(node, a) for a in args])
    return optional.wrap(lets, ir.call_op("box_method", [ir.const_str(name)] + values, OBJECT))


def builtin(node, name, args):
    """A builtin of one boxed argument, or None if it is not one native code runs on objects."""
    if len(args) != 1 or args[0].ty != OBJECT:
        return None
    x = args[0]
    if name == "len":
        return ir.call_op("box_len", [x], INT)
    if name == "str":
        return ir.call_op("box_str", [x], STR)
    if name == "repr":
        return ir.call_op("box_repr", [x], STR)
    if name == "bool":
        return truth(x)
    if name == "abs":
        return ir.call_op("box_unary", [ir.const_int(3), x], OBJECT)
    if name == "int":  # int(x) is an int: read as one (beyond int64, CPython computes the call)
        return unbox(ir.call_op("box_int", [x], OBJECT), INT)
    if name == "float":
        return unbox(ir.call_op("box_float", [x], OBJECT), FLOAT)
    if name == "list":
        return ir.call_op("box_list", [x], list_of(OBJECT))
    return None


def isinstance_test(scope, node, value, kinds):
    """isinstance(x, int / (int, float) ...) of a boxed x: CPython's isinstance, per class."""
    t = value if value.pure else scope.temp("isinstance", value.ty)
    result = None
    for k in kinds:
        if not (isinstance(k, ast.Name) and k.id in CLASSES):
            raise CompileError(k, "Builtin", f"isinstance() of a boxed value and {ast.unparse(k)!r}")
        test = ir.call_op("box_isinstance", [t, ir.const_int(CLASSES[k.id])], BOOL)
        result = test if result is None else ir.binary("PrimOr", result, test, BOOL)
    return result if value.pure else ir.let(t, value, result)


def iterable(e):
    """What `for v in x` iterates for a boxed x: list(x), CPython's iteration of it."""
    return ir.call_op("box_list", [e], list_of(OBJECT))


def uses_boxed(fdef, types):
    """Does the function @p fdef (its parameter and return types @p types) involve boxed values?"""
    def has(t):
        return t == OBJECT or any(has(a) for a in t.args)
    return any(has(t) for t in types if t is not None)


def calls_any(fdef, names):
    """The functions of @p names that @p fdef calls by name."""
    return names & called_names(fdef)


def raising_python(fdefs, signatures, classes):
    """Names of the functions (of @p fdefs) whose calls may raise CPython's own exceptions: those
    with boxed values, and those calling one, to a fixed point. Their `except` clauses take
    exception objects (exceptions.py)."""
    out = {f.name for f in fdefs if f.name in signatures and
           (uses_boxed(f, signatures[f.name].params + [signatures[f.name].ret]) or has_boxed_locals(f, classes))}
    grown = True
    while grown:
        grown = False
        for f in fdefs:
            if f.name not in out and calls_any(f, out):
                out.add(f.name)
                grown = True
    return out


def has_boxed_locals(fdef, classes):
    """Does a local annotation of @p fdef name a boxed type?"""
    from .typerules import annotation_type  # typerules builds on this module's types
    for node in ast.walk(fdef):
        if isinstance(node, ast.AnnAssign):
            try:
                ty = annotation_type(node.annotation, "local", classes)
            except CompileError:
                continue
            if ty == OBJECT or any(a == OBJECT for a in ty.args):
                return True
    return False


def is_unboxed(e):
    """Is @p e a boxed value read as a typed one (coerce)? Its variable may rather be boxed."""
    node = e.node
    if getattr(node, "type_name", None) != "PrimCall":
        return False
    op = ir.fn("runtime.NodeGetAttr")(node, "op")
    return getattr(op, "type_name", None) == "Op" and ir.fn("runtime.NodeGetAttr")(op, "name") == "box_unbox"


def reboxable(have, want):
    """May a container of @p have become one of @p want, its typed elements boxed (list[int] ->
    list, dict[str, int] -> dict[str, Any])?"""
    if have.kind != want.kind or have.kind not in ("list", "dict", "vtuple", "tuple") or len(have.args) != len(want.args):
        return False
    return all(h == w or w == OBJECT or reboxable(h, w) for h, w in zip(have.args, want.args))


def rebox(node, e, want):
    """A container @p e as a @p want: built as the Python object it stands for, then read back with
    its elements boxed (the same objects)."""
    return unbox(box(node, e), want)


_NARROWED = {"int": INT, "float": FLOAT, "str": STR, "bool": BOOL}


def narrowing(node, scope):
    """(name, type) when @p node is `if isinstance(name, int):` (float, str, bool) over a boxed local
    the body never rebinds: there reads of name are that type, unboxed. A value of a subclass (True
    for int) is not one natively: reading it goes back to CPython, which runs the call as it is."""
    t = node.test
    if not (isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id == "isinstance" and
            len(t.args) == 2 and isinstance(t.args[0], ast.Name) and isinstance(t.args[1], ast.Name) and
            t.args[1].id in _NARROWED and scope.module_name("isinstance") and scope.module_name(t.args[1].id)):
        return None
    name = t.args[0].id
    var = scope.lookup(name)
    if var is None or var.ty != OBJECT:
        return None
    for stmt in node.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
                return None
    return name, _NARROWED[t.args[1].id]
