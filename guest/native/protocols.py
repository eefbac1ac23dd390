"""Dunder methods of program classes, called by native code exactly where CPython
calls them implicitly:

    len(obj)           __len__ (a negative result raises ValueError, as CPython's)
    x in obj           __contains__ (its result's truth)
    bool(obj), if obj, not obj     __bool__, else __len__() != 0, else true
    a == b, a != b, a < b ...      __eq__ / __ne__ (else `not __eq__`) / __lt__ ...
    a + b, -a          __add__ ..., __neg__, __pos__, __invert__
    a += b             __iadd__, else __add__
    str(obj), repr(obj), f"{obj}", f"{obj!r}"   __str__ (else __repr__) / __repr__

A dunder is an ordinary method (classes.py lowers it like any other); what is
refused is any form whose CPython meaning needs something native code does
not reproduce: a reflected operation (`3 + v`, `a < b` served by b's `__gt__`,
operands of a class hierarchy, where a subclass's reflected method runs
first), a NotImplemented result (it does not compile as a typed result, so
the dunder is unusable), a result of the wrong type (CPython's TypeError),
or a format spec. A dunder that does not compile (an untyped `__repr__` for
debugging) only makes its uses refused, not the class. A dunder native code
never calls implicitly (`__iter__`, `__getitem__`, `__hash__`: instances are
not iterable, subscriptable or hashable natively) is inert: allowed, never
called. Dunders that change every attribute access or construction
(`__getattr__`, `__setattr__`, `__new__`, ...) still refuse the class.
"""
import ast

from . import inheritance
from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import E
from .typemodel import BOOL, INT, STR

BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
          ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.LShift: "lshift", ast.RShift: "rshift",
          ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor"}
UNARY = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}
COMPARE = {ast.Eq: "__eq__", ast.NotEq: "__ne__", ast.Lt: "__lt__", ast.LtE: "__le__", ast.Gt: "__gt__",
           ast.GtE: "__ge__"}
REFLECTED = {"__lt__": "__gt__", "__le__": "__ge__", "__gt__": "__lt__", "__ge__": "__le__", "__eq__": "__eq__",
             "__ne__": "__ne__"}
# Helper methods added to a class that defines __len__ or __bool__ (add_helpers).
CHECKED_LEN, TRUTH = "__spine_len__", "__spine_truth__"
_CALLED = {"__len__", "__contains__", "__bool__", "__str__", "__repr__", *COMPARE.values(), *UNARY.values()} | \
    {f"__{o}__" for o in BINARY.values()} | {f"__i{o}__" for o in BINARY.values()}
_INERT = {"__iter__", "__next__", "__reversed__", "__getitem__", "__setitem__", "__delitem__", "__missing__",
          "__call__", "__enter__", "__exit__", "__hash__", "__int__", "__float__", "__index__", "__complex__",
          "__abs__", "__round__", "__trunc__", "__floor__", "__ceil__", "__format__", "__length_hint__",
          "__copy__", "__deepcopy__", "__getstate__", "__setstate__", "__reduce__", "__sizeof__", "__divmod__",
          "__rdivmod__"} | \
    {f"__r{o}__" for o in BINARY.values()}
ALLOWED = _CALLED | _INERT | {CHECKED_LEN, TRUTH}

_HELPERS = {
    CHECKED_LEN: "def __spine_len__(self) -> int:\n    n: int = self.__len__()\n    if n < 0:\n"
                 "        raise ValueError('__len__() should return >= 0')\n    return n\n",
    "bool": "def __spine_truth__(self) -> bool:\n    return self.__bool__()\n",
    "len": "def __spine_truth__(self) -> bool:\n    return self.__spine_len__() != 0\n",
}


def is_dunder(name):
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def add_helpers(node):
    """Methods CPython's len() and truth test amount to, for a class defining __len__ / __bool__."""
    own = {s.name for s in node.body if isinstance(s, ast.FunctionDef)}
    if CHECKED_LEN in own or TRUTH in own:
        return  # added already (a module is analysed again after a piece of it failed)
    extra = []
    if "__len__" in own:
        extra.append(_HELPERS[CHECKED_LEN])
    if "__bool__" in own:
        extra.append(_HELPERS["bool"])
    elif "__len__" in own:
        extra.append(_HELPERS["len"])
    for text in extra:
        f = ast.parse(text).body[0]
        node.body.append(ast.fix_missing_locations(ast.copy_location(f, node)))


def mark_eq(info):
    """== on a class of a hierarchy where some class defines __eq__ is not identity: containers
    and mixed comparisons refuse it (Ty.eq_by_fields); compare() below calls it."""
    root = inheritance.ancestors(info)[-1]
    if any(isinstance(s, ast.FunctionDef) and s.name == "__eq__" for c in inheritance.subtree(root)
           for s in c.node.body):
        info.ty.fields_eq = info.ty.fields_eq or "eq"


def _lookup(scope, node, ty, name):
    """The Sig of dunder @p name for instances of class @p ty (None if no class of its MRO
    defines it); refused if it does not compile anywhere a call could reach."""
    info = scope.module.classes[ty.name]
    for c in inheritance.ancestors(info) + inheritance.subtree(info)[1:]:
        if name in c.unusable:
            raise CompileError(node, "DunderMethod", f"{c.name}.{name} does not compile natively: "
                               f"{c.unusable[name]}")
    return inheritance.resolve(info, name)[1]


def _defined_below(scope, ty, names):
    """Does a subclass of @p ty define one of @p names (CPython would find it, a call through
    @p ty's methods would not)?"""
    info = scope.module.classes[ty.name]
    return any(n in c.methods or n in c.unusable for c in inheritance.subtree(info)[1:] for n in names)


def _call(parser, node, obj, name, args):
    """obj.name(*args), with what a method call on self in __init__ requires (calls.class_method):
    every field set, and no subclass whose fields could still be unset."""
    scope = parser.scope
    classes = scope.module.classes
    if scope.init_of is not None and (inheritance.is_subclass(classes, scope.init_of, obj.ty.name) or
                                      inheritance.is_subclass(classes, obj.ty.name, scope.init_of)):
        if classes[scope.init_of].subclasses:
            raise CompileError(node, "SelfInInit", f"{scope.init_of} has subclasses: {name} called in its "
                               "__init__ could read fields a subclass has not set yet")
        parser.require_all_fields(node)
    return scope.module.method_calls.call(obj, name, args, node, False)


def _arg(parser, node, e, want, what):
    e = inheritance.coerce(parser.scope.module.classes, e, want)
    parser.no_borrowed_store(node, e, f"passing it to {what}")
    if e.ty != want:
        raise CompileError(node, "DunderArgument", f"{what}: {e.ty.text} where the method takes {want.text}")
    return e


def _standalone(scope, node, ty, what):
    """Operators of a class with a base or subclasses are refused: CPython runs a subclass
    operand's reflected method first."""
    info = scope.module.classes[ty.name]
    if info.base is not None or info.subclasses:
        raise CompileError(node, "DunderHierarchy", f"{what} on {ty.text}, a class of a hierarchy (CPython may "
                           "call a subclass's reflected method first)")


def _bool_result(node, sig, what):
    if sig.ret != BOOL:
        raise CompileError(node, "DunderResult", f"{what} returns {sig.ret.text}, natively bool only")


def _ordered(parser, a, b, build):
    """build(a', b') with @p a evaluated before @p b."""
    if a.pure or b.pure:
        return build(a, b)
    return parser.bind_first(a, lambda x: build(x, b))


def length(parser, node, e):
    """len(obj)."""
    scope = parser.scope
    if _lookup(scope, node, e.ty, "__len__") is None or _defined_below(scope, e.ty, ("__len__",)):
        raise CompileError(node, "Builtin", f"len() of ({e.ty.text}): its class has no __len__")
    _lookup(scope, node, e.ty, CHECKED_LEN)
    return _call(parser, node, e, CHECKED_LEN, [])


def truth(parser, node, e):
    """Truth of a class reference: None is false; otherwise __bool__, __len__ or true."""
    scope = parser.scope
    if _defined_below(scope, e.ty, ("__bool__", "__len__")):
        raise CompileError(node, "Truthiness", f"truth of {e.ty.text}: a subclass defines __bool__ or __len__")
    sig = _lookup(scope, node, e.ty, "__bool__")
    if sig is not None:
        _bool_result(node, sig, "__bool__")
    elif _lookup(scope, node, e.ty, "__len__") is None:
        return inheritance.is_none(e, negate=True)
    for helper in (TRUTH,) if sig is not None else (CHECKED_LEN, TRUTH):
        _lookup(scope, node, e.ty, helper)
    t = scope.temp("truth", e.ty)
    test = ir.binary("PrimAnd", inheritance.is_none(t, negate=True), _call(parser, node, t, TRUTH, []), BOOL)
    return ir.let(t, e, test)


def contains(parser, node, container, item):
    """item in obj: item first, then obj.__contains__(item)'s truth."""
    scope = parser.scope
    sig = _lookup(scope, node, container.ty, "__contains__")
    if sig is None or _defined_below(scope, container.ty, ("__contains__",)):
        raise CompileError(node, "In", f"'in' on {container.ty.text} without __contains__ (CPython would iterate)")
    item = _arg(parser, node, item, sig.params[1], f"'in' on {container.ty.text}")
    result = _ordered(parser, item, container, lambda i, c: _call(parser, node, c, "__contains__", [i]))
    return result if sig.ret == BOOL else parser.truth(node, result)


def binary(parser, node, op_type, a, b, inplace=False):
    """a <op> b with a class operand: a.__op__(b) (or a.__iop__(b) for `a op= b` when defined)."""
    scope = parser.scope
    op = BINARY.get(op_type)
    if op is None:
        raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}")
    if a.ty.kind != "class" and inheritance.resolve(scope.module.classes[b.ty.name], f"__r{op}__")[0] is None:
        raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}")
    if a.ty.kind != "class":
        raise CompileError(node, "ReflectedOperator", f"{op_type.__name__} of {a.ty.text} and {b.ty.text} calls "
                           f"__r{op}__ (reflected operations are not native)")
    _standalone(scope, node, a.ty, f"{op_type.__name__}")
    if b.ty.kind == "class" and b.ty != a.ty:
        raise CompileError(node, "ReflectedOperator", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}: "
                           f"{b.ty.text}.__r{op}__ may apply")
    name = f"__i{op}__" if inplace and _lookup(scope, node, a.ty, f"__i{op}__") is not None else f"__{op}__"
    sig = _lookup(scope, node, a.ty, name)
    if sig is None:
        raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}: "
                           f"{a.ty.text} has no {name}")
    b = _arg(parser, node, b, sig.params[1], f"{name} of {a.ty.text}")
    return _ordered(parser, a, b, lambda x, y: _call(parser, node, x, name, [y]))


def unary(parser, node, op_type, a):
    scope = parser.scope
    name = UNARY[op_type]
    _standalone(scope, node, a.ty, name)
    if _lookup(scope, node, a.ty, name) is None:
        raise CompileError(node, "OperandType", f"unary {op_type.__name__} of {a.ty.text}: no {name}")
    return _call(parser, node, a, name, [])


def compare(parser, node, op, a, b):
    """a <cmp> b where an operand is a class instance and a comparison dunder is defined;
    None when no class involved defines one (identity ==, the usual refusals)."""
    scope = parser.scope
    name = COMPARE.get(type(op))
    if name is None:
        return None
    classes = [x.ty for x in (a, b) if x.ty.kind == "class"]
    names = {name, REFLECTED[name]} | ({"__eq__"} if name == "__ne__" else set())
    if not any(_lookup(scope, node, t, n) is not None or _defined_below(scope, t, names) for t in classes
               for n in names):
        return None
    what = f"{type(op).__name__} of {a.ty.text} and {b.ty.text}"
    if a.ty != b.ty:
        raise CompileError(node, "ReflectedOperator", f"{what}: only operands of one class are native")
    _standalone(scope, node, a.ty, what)
    sig = _lookup(scope, node, a.ty, name)
    if sig is None and name == "__ne__":
        eq = _lookup(scope, node, a.ty, "__eq__")
        _bool_result(node, eq, "__eq__")
        b = _arg(parser, node, b, eq.params[1], what)
        return E(ir.fn("ast.PrimNot")(_ordered(parser, a, b, lambda x, y: _call(parser, node, x, "__eq__", [y])).node),
                 BOOL)
    if sig is None:
        if name == "__eq__":
            return None  # object.__eq__: identity (__ne__ alone does not change ==)
        raise CompileError(node, "ReflectedOperator", f"{what}: {a.ty.text} has no {name} (CPython would "
                           f"call {REFLECTED[name]} of the right operand)")
    _bool_result(node, sig, name)
    b = _arg(parser, node, b, sig.params[1], what)
    return _ordered(parser, a, b, lambda x, y: _call(parser, node, x, name, [y]))


def text(parser, node, e, conversion):
    """str(obj) (@p conversion 's') or repr(obj) ('r'): __str__ falls back to __repr__ as
    object.__str__ does; the default repr (an address) is refused."""
    scope = parser.scope
    info = scope.module.classes[e.ty.name]
    if conversion == "s":
        _lookup(scope, node, e.ty, "__str__")  # refused if it does not compile (str() would not be repr())
    chosen = lambda c: "__str__" if conversion == "s" and inheritance.resolve(c, "__str__")[0] else "__repr__"
    name = chosen(info)
    if any(chosen(c) != name for c in inheritance.subtree(info)):
        raise CompileError(node, "DunderMethod", f"{'str' if conversion == 's' else 'repr'}() of {e.ty.text}: "
                           "the classes of its hierarchy define __str__ and __repr__ differently")
    sig = _lookup(scope, node, e.ty, name)
    if sig is None and info.dataclass is not None:
        raise CompileError(node, "FormatType", f"!{conversion} of a {e.ty.text}: the __repr__ a dataclass or "
                           "NamedTuple generates is not native")
    if sig is None:
        raise CompileError(node, "DunderMethod", f"{'str' if conversion == 's' else 'repr'}() of {e.ty.text}, "
                           "whose class has no __repr__ (the default shows an address)")
    if sig.ret != STR:
        raise CompileError(node, "DunderResult", f"{name} returns {sig.ret.text}")
    return _call(parser, node, e, name, [])


def field(parser, v, e):
    """An f-string field {obj}, {obj!s}, {obj!r} without a spec (object.__format__ is str())."""
    scope = parser.scope
    spec = v.format_spec
    if spec is not None or v.conversion == ord("a") or _lookup(scope, v, e.ty, "__format__") is not None or \
            _defined_below(scope, e.ty, ("__format__",)):
        raise CompileError(v, "FormatType", f"formatting a {e.ty.text} with a spec, !a or __format__")
    return text(parser, v, e, "r" if v.conversion == ord("r") else "s")
