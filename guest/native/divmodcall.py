"""divmod(a, b) of ints and floats: CPython's int divmod is (a // b, a % b)
and its float divmod runs the same _float_div_mod as // and %, so native
code computes the pair with the operators it already has (floor signs,
int64 overflow going back to CPython). Only the zero divisor's message is
divmod's own for floats ("float divmod()"); for ints it is the one // raises."""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import E
from .typemodel import BOOL, FLOAT, tuple_of

_ZERO_DIVISION = 2  # SPINE_FAULT_ZERODIV


def divmod_call(parser, node):
    parser.keywords(node, ())
    if len(node.args) != 2:
        raise CompileError(node, "Builtin", "divmod() takes 2 arguments")
    a, b = (parser.value(x) for x in node.args)
    if not (a.ty.scalar and b.ty.scalar):
        raise CompileError(node, "Builtin", f"divmod() of ({a.ty.text}, {b.ty.text})")
    ta, tb = parser.scope.temp("divmod", a.ty), parser.scope.temp("divmod", b.ty)
    q = parser.binop(node, ast.FloorDiv, ta, tb)
    r = parser.binop(node, ast.Mod, ta, tb)
    result = E(ir.fn("ast.TupleLiteral")([q.node, r.node]), tuple_of([q.ty, r.ty]))
    if FLOAT in (a.ty, b.ty):
        zero = ir.binary("PrimEQ", ir.call_op("float", [tb], FLOAT), ir.const_float(0.0), BOOL)
        fault = ir.call_op("raise_text", [ir.const_int(_ZERO_DIVISION), ir.const_str("float divmod()")], BOOL)
        checked = ir.if_then_else(zero, fault, ir.const_bool(False))
        result = ir.let(parser.scope.temp("divmod_zero", BOOL), checked, result)
    return ir.let(ta, a, ir.let(tb, b, result))
