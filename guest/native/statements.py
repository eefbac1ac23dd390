"""Statement family of the parser: function bodies -> C++ AST statements,
with definite assignment (scope.Flow), exact variable types, and the
lowering of ``for ... in range(...)`` to a WhileStmt."""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .expressions import ExprParser
from .irbuilder import BOOL, INT
from .scope import Flow
from .typerules import PY_NAMES, require_same


class StmtParser:
    def __init__(self, scope, ret_dtype):
        self.scope = scope
        self.ret = ret_dtype
        self.exprs = ExprParser(scope)
        self.depth = 0        # block nesting: locals first assigned at depth 0 are defined in place
        self.loops = []       # per enclosing loop: [saw_break]

    def expr(self, node, flow):
        return self.exprs.parse(node, flow)

    # ---- blocks -------------------------------------------------------------
    def block(self, stmts, flow):
        """Lower a list of statements; returns (list of Stmt nodes, flow at the end)."""
        out = []
        for s in stmts:
            if not flow.reachable:
                break  # dead code after return/break/continue never runs, natively or in CPython
            method = getattr(self, "visit_" + type(s).__name__, None)
            if method is None:
                raise CompileError(s, type(s).__name__)
            out.extend(method(s, flow))
        return out, flow

    def nested(self, stmts, flow):
        self.depth += 1
        try:
            body, end = self.block(stmts, flow)
        finally:
            self.depth -= 1
        return ir.fn("ast.SeqStmt")(body), end

    # ---- simple statements --------------------------------------------------
    def visit_Pass(self, node, flow):
        return []

    def visit_Expr(self, node, flow):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return []  # docstring
        # Kept for its errors: `x // 0` alone still raises.
        return [ir.fn("ast.ExprStmt")(self.expr(node.value, flow).node)]

    def assign(self, node, name, value, flow):
        target = self.scope.lookup(name)
        if target is None:
            if name in self.scope.signatures or name in ("range", "abs", "min", "max", "int", "float", "bool"):
                raise CompileError(node, "ShadowedName", f"assignment to {name!r} shadows a function")
            target = self.scope.define(name, value.dtype)
            flow.assigned.add(name)
            if self.depth == 0:
                return [ir.fn("ast.AllocaVarStmt")(target.node, value.node)]
            # First assigned in a nested block: Python's function scope means it
            # lives on after the block, so it is declared at the function's top.
            self.scope.hoisted.append(target)
        else:
            require_same(node, target.dtype, value.dtype, f"variable {name!r}")
            flow.assigned.add(name)
        return [ir.fn("ast.AssignStmt")(target.node, value.node)]

    def visit_Assign(self, node, flow):
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            raise CompileError(node, "AssignTarget", "only single-name assignment is supported")
        value = self.expr(node.value, flow)
        return self.assign(node, node.targets[0].id, value, flow)

    def visit_AnnAssign(self, node, flow):
        from .typerules import annotation_type
        if not isinstance(node.target, ast.Name) or node.value is None:
            raise CompileError(node, "AnnAssign", "annotated assignment needs a name and a value")
        want = annotation_type(node.annotation, f"variable {node.target.id!r}")
        value = self.expr(node.value, flow)
        require_same(node, want, value.dtype, f"variable {node.target.id!r}")
        return self.assign(node, node.target.id, value, flow)

    def visit_AugAssign(self, node, flow):
        if not isinstance(node.target, ast.Name):
            raise CompileError(node, "AugAssignTarget", "only names can be augmented")
        current = self.expr(node.target, flow)
        value = self.exprs.binop(node, type(node.op), current, self.expr(node.value, flow))
        require_same(node, current.dtype, value.dtype, f"variable {node.target.id!r}")
        return self.assign(node, node.target.id, value, flow)

    def visit_Return(self, node, flow):
        if node.value is None:
            raise CompileError(node, "ReturnNone", "functions must return a value")
        value = self.expr(node.value, flow)
        if value.dtype != self.ret:
            # CPython does not convert to the annotation; the native result must have the same type.
            raise CompileError(node, "ReturnType",
                               f"returns {PY_NAMES[value.dtype]}, declared {PY_NAMES[self.ret]}")
        flow.reachable = False
        return [ir.fn("ast.ReturnStmt")(value.node)]

    def visit_Break(self, node, flow):
        if not self.loops:
            raise CompileError(node, "Break", "'break' outside loop")
        self.loops[-1][0] = True
        flow.reachable = False
        return [ir.fn("ast.Break")()]

    def visit_Continue(self, node, flow):
        if not self.loops:
            raise CompileError(node, "Continue", "'continue' outside loop")
        flow.reachable = False
        return [ir.fn("ast.Continue")()]

    # ---- compound statements ------------------------------------------------
    def visit_If(self, node, flow):
        cond = ir.truth(self.expr(node.test, flow))
        then_body, then_flow = self.nested(node.body, flow.copy())
        else_body, else_flow = (None, flow.copy())
        if node.orelse:
            else_body, else_flow = self.nested(node.orelse, flow.copy())
        joined = Flow.join(then_flow, else_flow)
        flow.assigned, flow.reachable = joined.assigned, joined.reachable
        return [ir.fn("ast.IfStmt")(cond.node, then_body, else_body)]

    def loop_body(self, stmts, flow):
        self.loops.append([False])
        try:
            body, _ = self.nested(stmts, flow.copy())
        finally:
            saw_break = self.loops.pop()[0]
        return body, saw_break

    def visit_While(self, node, flow):
        if node.orelse:
            raise CompileError(node, "WhileElse", "while ... else is not supported")
        cond = ir.truth(self.expr(node.test, flow))
        body, saw_break = self.loop_body(node.body, flow)
        forever = isinstance(node.test, ast.Constant) and node.test.value is True
        # The body may run zero times, so nothing it assigns is definite afterwards;
        # `while True` without break is only left by return.
        if forever and not saw_break:
            flow.reachable = False
        return [ir.fn("ast.WhileStmt")(cond.node, body)]

    def visit_For(self, node, flow):
        if node.orelse:
            raise CompileError(node, "ForElse", "for ... else is not supported")
        if not isinstance(node.target, ast.Name):
            raise CompileError(node.target, "ForTarget", "the loop target must be one name")
        it = node.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and self.scope.lookup("range") is None and not it.keywords and 1 <= len(it.args) <= 3):
            raise CompileError(it, "ForIter", "only for ... in range(...) is supported")
        args = []
        for a in it.args:
            e = self.expr(a, flow)
            if e.dtype == BOOL:
                e = ir.call_op("int", [e], INT)
            if e.dtype != INT:
                raise CompileError(a, "RangeArg", "range() arguments must be int")
            args.append((a, e))
        out = []

        # range()'s arguments are evaluated once, in order, before the loop.
        def keep(e, hint):
            # Always a copy: the body may reassign a variable range() was given.
            t = self.scope.temp(hint, INT)
            out.append(ir.fn("ast.AllocaVarStmt")(t.node, e.node))
            return t

        if len(args) == 1:
            start, stop, step_src, step = ir.const_int(0), args[0][1], None, 1
        else:
            start, stop = args[0][1], args[1][1]
            step_src = args[2] if len(args) == 3 else None
            step = 1
        cur = keep(start, "range.it")
        stop = keep(stop, "range.stop")
        if step_src is not None:
            a, e = step_src
            if isinstance(a, ast.Constant) or (isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant)):
                step = ast.literal_eval(a)
                if step == 0:
                    raise CompileError(a, "RangeStep", "range() arg 3 must not be zero")
                step_e = ir.const_int(step)
            else:
                step_e = keep(ir.call_op("check_range_step", [e], INT), "range.step")
                step = None
        else:
            step_e = ir.const_int(1)
        lt = ir.binary("PrimLT", cur, stop, BOOL)
        gt = ir.binary("PrimGT", cur, stop, BOOL)
        if step is None:
            zero = ir.const_int(0)
            up = ir.binary("PrimAnd", ir.binary("PrimGT", step_e, zero, BOOL), lt, BOOL)
            down = ir.binary("PrimAnd", ir.binary("PrimLT", step_e, zero, BOOL), gt, BOOL)
            cond = ir.binary("PrimOr", up, down, BOOL)
        else:
            cond = lt if step > 0 else gt
        # Body prologue: target = cur; cur += step. Advancing first keeps
        # `continue` correct and makes assignments to the target inside the
        # body irrelevant to the iteration, as in CPython.
        body_flow = flow.copy()
        self.depth += 1
        try:
            prologue = self.assign(node.target, node.target.id, cur, body_flow)
        finally:
            self.depth -= 1
        if self.scope.lookup(node.target.id).dtype != INT:
            raise CompileError(node.target, "TypeChange", f"loop variable {node.target.id!r} must be int")
        advance = ir.fn("ast.AssignStmt")(cur.node, ir.binary("PrimAdd", cur, step_e, INT).node)
        self.loops.append([False])
        self.depth += 1
        try:
            body_nodes, _ = self.block(node.body, body_flow)
        finally:
            self.depth -= 1
            self.loops.pop()
        body = ir.fn("ast.SeqStmt")(prologue + [advance] + body_nodes)
        out.append(ir.fn("ast.WhileStmt")(cond.node, body))
        return out
