"""round(), pow(), bin(), oct() and hex() of numbers, with CPython's meaning
(codegen/pyround.h, pymath.h pow_mod, intbase.h): round(x) is an int,
round(x, n) has x's type; pow(a, b) is a ** b, pow(a, b, m) of ints the
modular power (a negative exponent takes the inverse, as CPython 3.8+).
Operands of other types (a float modulus, ndigits None) are refused: CPython
raises TypeError or computes what native code does not represent."""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .typemodel import BOOL, FLOAT, INT, STR

_INTS = (INT, BOOL)


def round_call(parser, node):
    parser.keywords(node, ())
    if len(node.args) not in (1, 2):
        raise CompileError(node, "Builtin", "round() takes 1 or 2 arguments")
    args = [parser.value(a) for a in node.args]
    if not args[0].ty.scalar or (len(args) == 2 and args[1].ty not in _INTS):
        raise CompileError(node, "Builtin", f"round() of ({', '.join(a.ty.text for a in args)})")
    return ir.call_op("round", args, FLOAT if len(args) == 2 and args[0].ty == FLOAT else INT)


def pow_call(parser, node):
    parser.keywords(node, ())
    if len(node.args) not in (2, 3):
        raise CompileError(node, "Builtin", "pow() takes 2 or 3 arguments")
    args = [parser.value(a) for a in node.args]
    if len(args) == 2:
        return parser.binop(node, ast.Pow, *args)
    if any(a.ty not in _INTS for a in args):
        raise CompileError(node, "Builtin", f"pow() of ({', '.join(a.ty.text for a in args)}): a modulus needs ints")
    return ir.call_op("pow_mod", args, INT)


def int_text_call(parser, node):
    """bin(n), oct(n), hex(n) of an int (or a bool)."""
    name = node.func.id
    parser.keywords(node, ())
    if len(node.args) != 1:
        raise CompileError(node, "Builtin", f"{name}() takes 1 argument")
    x = parser.value(node.args[0])
    if x.ty not in _INTS:
        raise CompileError(node, "Builtin", f"{name}() of {x.ty.text}")
    return ir.call_op(name, [x], STR)


NUMERIC_CALLS = {"round": round_call, "pow": pow_call, "bin": int_text_call, "oct": int_text_call,
                 "hex": int_text_call}
