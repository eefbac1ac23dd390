"""Typed handles on the C++ AST: every node is built through the runtime
registry (``ast.*`` globals), and the frontend keeps the type next to the
node so type rules need no round trip."""
from .registry import fn
from .typemodel import BOOL, FLOAT, INT, STR

__all__ = ["fn", "E", "INT", "FLOAT", "BOOL", "STR"]


class E:
    """A typed expression: the runtime AST node, its Ty, and two facts.

    ``pure``: a variable or a constant, safe to evaluate twice (no error, no
    cost). ``borrowed``: it may be (or hold) a mutable object the caller
    passed in; native code works on a copy of those, so it may read them but
    never change, keep or return them (see borrow.py)."""

    __slots__ = ("node", "ty", "pure", "borrowed")

    def __init__(self, node, ty, pure=False, borrowed=False):
        self.node = node
        self.ty = ty
        self.pure = pure
        self.borrowed = borrowed and ty.mutable


def const_int(v):
    return E(fn("ast.IntImm")(INT.dtype, v), INT, True)


def const_bool(v):
    return E(fn("ast.IntImm")(BOOL.dtype, 1 if v else 0), BOOL, True)


def const_float(v):
    return E(fn("ast.FloatImm")(v), FLOAT, True)


def const_str(v):
    return E(fn("ast.StringImm")(v), STR, True)


def zero(ty):
    """The initial value of a hoisted scalar local; objects start unset (None)."""
    return {INT: const_int(0), FLOAT: const_float(0.0), BOOL: const_bool(False)}.get(ty)


def var(name, ty):
    return E(fn("ast.PrimVar")(name, ty.node), ty, True)


def binary(op, a, b, ty):
    return E(fn("ast." + op)(a.node, b.node), ty)


def call_op(op, args, ty, borrowed=False):
    return E(fn("ast.PrimCall")(ty.node, fn("ast.Op")(op), [a.node for a in args]), ty, borrowed=borrowed)


def truth(e):
    """Python truthiness as a bool expression (numbers; containers and str by length)."""
    if e.ty == BOOL:
        return e
    if e.ty.scalar:
        return call_op("bool", [e], BOOL)
    return binary("PrimNE", call_op("len", [e], INT), const_int(0), BOOL)


def let(v, value, body):
    return E(fn("ast.PrimLet")(v.node, value.node, body.node), body.ty, borrowed=body.borrowed)


def if_then_else(c, t, f):
    return E(fn("ast.PrimIfThenElse")(c.node, t.node, f.node), t.ty, borrowed=t.borrowed or f.borrowed)


def stmt(name, *args):
    """A statement node ``ast.<name>(*args)``."""
    return fn("ast." + name)(*args)


def expr_stmt(e):
    return fn("ast.ExprStmt")(e.node)


def seq(stmts):
    return fn("ast.SeqStmt")(list(stmts))
