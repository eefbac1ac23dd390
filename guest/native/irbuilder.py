"""Typed handles on the C++ AST: every node is built through the runtime
registry (``ast.*`` globals), and the frontend keeps the data type next to
the node so type rules need no round trip."""
import spine_compiler  # noqa: F401  (loads libspine_compiler: registers ast.*)
import spine_runtime

_cache = {}


def fn(name):
    """The registry function ``name`` (cached)."""
    f = _cache.get(name)
    if f is None:
        f = _cache[name] = spine_runtime.get_global(name)
    return f


INT, FLOAT, BOOL = "int64", "float64", "bool"


class E:
    """A typed expression: the runtime AST node and its data type."""

    __slots__ = ("node", "dtype", "pure")

    def __init__(self, node, dtype, pure=False):
        self.node = node
        self.dtype = dtype
        # Pure: a variable or a constant, safe to evaluate twice (no error, no cost).
        self.pure = pure


def const_int(v):
    return E(fn("ast.IntImm")(INT, v), INT, True)


def const_bool(v):
    return E(fn("ast.IntImm")(BOOL, 1 if v else 0), BOOL, True)


def const_float(v):
    return E(fn("ast.FloatImm")(v), FLOAT, True)


def zero(dtype):
    return {INT: const_int(0), FLOAT: const_float(0.0), BOOL: const_bool(False)}[dtype]


def var(name, dtype):
    return E(fn("ast.PrimVar")(name, dtype), dtype, True)


def binary(op, a, b, dtype):
    return E(fn("ast." + op)(a.node, b.node), dtype)


def call_op(op, args, dtype):
    return E(fn("ast.PrimCall")(dtype, fn("ast.Op")(op), [a.node for a in args]), dtype)


def truth(e):
    """Python truthiness as a bool expression."""
    return e if e.dtype == BOOL else call_op("bool", [e], BOOL)


def let(v, value, body):
    return E(fn("ast.PrimLet")(v.node, value.node, body.node), body.dtype)


def if_then_else(c, t, f):
    return E(fn("ast.PrimIfThenElse")(c.node, t.node, f.node), t.dtype)
