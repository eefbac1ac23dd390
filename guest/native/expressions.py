"""Expression family of the parser: Python ``ast`` expressions -> typed C++
AST expressions. Anything not listed here is rejected with its position."""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import BOOL, FLOAT, INT, E
from .typerules import PY_NAMES, arith

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

_BINOPS = {ast.Add: "PrimAdd", ast.Sub: "PrimSub", ast.Mult: "PrimMul", ast.Div: "PrimDiv",
           ast.FloorDiv: "PrimFloorDiv", ast.Mod: "PrimFloorMod"}
_CMPOPS = {ast.Eq: "PrimEQ", ast.NotEq: "PrimNE", ast.Lt: "PrimLT", ast.LtE: "PrimLE",
           ast.Gt: "PrimGT", ast.GtE: "PrimGE"}
_BUILTINS = {"abs", "min", "max", "float", "int", "bool"}


class ExprParser:
    """Lowers one expression at a time; ``flow`` is the definite-assignment state at that point."""

    def __init__(self, scope):
        self.scope = scope
        self.flow = None

    def parse(self, node, flow):
        self.flow = flow
        return self.visit(node)

    def visit(self, node):
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise CompileError(node, type(node).__name__)
        return method(node)

    # ---- leaves -------------------------------------------------------------
    def visit_Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            return ir.const_bool(v)
        if isinstance(v, int):
            if not INT64_MIN <= v <= INT64_MAX:
                raise CompileError(node, "BigIntLiteral", "integer literal does not fit int64")
            return ir.const_int(v)
        if isinstance(v, float):
            return ir.const_float(v)
        raise CompileError(node, "Constant", f"unsupported constant type {type(v).__name__}")

    def visit_Name(self, node):
        e = self.scope.lookup(node.id)
        if e is None:
            raise CompileError(node, "GlobalName", f"name {node.id!r} is not a parameter or local")
        self.flow.require(node, node.id)
        return e

    # ---- operators ----------------------------------------------------------
    def binop(self, node, op_type, a, b):
        op = _BINOPS.get(op_type)
        if op is None:
            raise CompileError(node, op_type.__name__)
        dtype = FLOAT if op == "PrimDiv" else arith(a.dtype, b.dtype)
        return ir.binary(op, a, b, dtype)

    def visit_BinOp(self, node):
        a = self.visit(node.left)
        b = self.visit(node.right)
        return self.binop(node, type(node.op), a, b)

    def visit_UnaryOp(self, node):
        o = node.operand
        if isinstance(node.op, ast.USub) and isinstance(o, ast.Constant) and type(o.value) is int:
            # Fold -literal first: -9223372036854775808 is in range, its operand is not.
            return self.visit_Constant(ast.copy_location(ast.Constant(-o.value), node))
        a = self.visit(o)
        if isinstance(node.op, ast.Not):
            return E(ir.fn("ast.PrimNot")(ir.truth(a).node), BOOL)
        if isinstance(node.op, ast.USub):
            return ir.call_op("neg", [a], FLOAT if a.dtype == FLOAT else INT)
        if isinstance(node.op, ast.UAdd):
            return ir.call_op("pos", [a], FLOAT if a.dtype == FLOAT else INT)
        raise CompileError(node, type(node.op).__name__)

    def visit_BoolOp(self, node):
        values = [self.visit(v) for v in node.values]
        types = {v.dtype for v in values}
        if len(types) != 1:
            # `x and y` returns one of the operands; with two types the result type would depend on the values.
            raise CompileError(node, "MixedBoolOp", "and/or operands must all have the same type")
        is_and = isinstance(node.op, ast.And)
        # Right fold: a and b and c == a and (b and c), with the same evaluation order.
        result = values[-1]
        for v in reversed(values[:-1]):
            if v.dtype == BOOL:
                result = ir.binary("PrimAnd" if is_and else "PrimOr", v, result, BOOL)
            else:
                t = self.scope.temp("boolop", v.dtype)
                keep_going = ir.truth(t)
                body = ir.if_then_else(keep_going, result, t) if is_and else ir.if_then_else(keep_going, t, result)
                result = ir.let(t, v, body)
        return result

    def compare(self, node, op, a, b):
        name = _CMPOPS.get(type(op))
        if name is None:
            raise CompileError(node, type(op).__name__)
        return ir.binary(name, a, b, BOOL)

    def visit_Compare(self, node):
        operands = [node.left] + list(node.comparators)
        first = self.visit(operands[0])
        if len(node.ops) == 1:
            return self.compare(node, node.ops[0], first, self.visit(operands[1]))
        # a < b < c: every operand evaluated once, in order, the rest skipped once one comparison fails.
        values = [first] + [self.visit(o) for o in operands[1:]]
        return self._chain(node, values, first)

    def _chain(self, node, values, first):
        bindings = []
        left = first
        if not left.pure:
            t = self.scope.temp("cmp", left.dtype)
            bindings.append((t, left))
            left = t

        def build(i, left):
            right = values[i + 1]
            if i + 1 == len(values) - 1:
                return self.compare(node, node.ops[i], left, right)
            t = right if right.pure else self.scope.temp("cmp", right.dtype)
            rest = ir.binary("PrimAnd", self.compare(node, node.ops[i], left, t), build(i + 1, t), BOOL)
            return rest if right.pure else ir.let(t, right, rest)

        result = build(0, left)
        for t, v in reversed(bindings):
            result = ir.let(t, v, result)
        return result

    def visit_IfExp(self, node):
        c = ir.truth(self.visit(node.test))
        t = self.visit(node.body)
        f = self.visit(node.orelse)
        if t.dtype != f.dtype:
            raise CompileError(node, "MixedIfExp", "both branches of a conditional expression need one type")
        return ir.if_then_else(c, t, f)

    # ---- calls --------------------------------------------------------------
    def visit_Call(self, node):
        if not isinstance(node.func, ast.Name):
            raise CompileError(node, "Call", f"call of {ast.unparse(node.func)!r}")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise CompileError(node, "CallKeywords", "calls take positional arguments only")
        name = node.func.id
        args = [self.visit(a) for a in node.args]
        if name in self.scope.signatures and self.scope.lookup(name) is None:
            params, ret = self.scope.signatures[name]
            if len(args) != len(params) or any(a.dtype != p for a, p in zip(args, params)):
                raise CompileError(node, "CallSignature",
                                   f"{name}() takes ({', '.join(PY_NAMES[p] for p in params)})")
            g = ir.fn("ast.GlobalVar")(name)
            return E(ir.fn("ast.PrimCall")(ret, g, [a.node for a in args]), ret)
        if name in _BUILTINS and self.scope.lookup(name) is None:
            return self.builtin(node, name, args)
        raise CompileError(node, "Call", f"call of {name!r}")

    def builtin(self, node, name, args):
        if name in ("min", "max"):
            if len(args) != 2 or args[0].dtype != args[1].dtype:
                raise CompileError(node, "Builtin", f"{name}() needs two arguments of one type")
            return ir.call_op(name, args, args[0].dtype)
        if len(args) != 1:
            raise CompileError(node, "Builtin", f"{name}() needs one argument")
        a = args[0]
        if name == "abs":
            return ir.call_op("abs", args, FLOAT if a.dtype == FLOAT else INT)
        if name == "float":
            return a if a.dtype == FLOAT else ir.call_op("float", args, FLOAT)
        if name == "int":
            return a if a.dtype == INT else ir.call_op("int", args, INT)
        return ir.truth(a)
