"""Iteration family: what a ``for`` (statement or comprehension) iterates
over, as a Plan the loop builders turn into a WhileStmt.

    setup                 # the iterable, evaluated once, before the loop
    while cond:           # advances (iterators) or tests (range)
        target = item     # bound first ...
        advance           # ... then the next step is prepared (range)
        body

range() keeps CPython's single evaluation of its arguments and its
negative and dynamic steps; lists are iterated with the length re-checked
every step, dicts raise when their size changes, str yields code points;
enumerate() and zip() combine plans (zip asks its second iterable only
when the first has an item, as CPython does). A set is iterated over its
table's slots, which are CPython's (codegen/pyset.h), so the order is too.
"""
import ast

from . import boxed
from . import irbuilder as ir
from .errors import CompileError
from .modulenames import value_node
from .typemodel import BOOL, INT, OBJECT, STR, iterator_type, list_of, tuple_of


class Plan:
    """One iteration: statements before the loop, the loop condition, the current item, the step."""

    def __init__(self, setup, cond, item, advance=()):
        self.setup = list(setup)
        self.cond = cond
        self.item = item
        self.advance = list(advance)


class LoopExprs:
    """Mixed into ExprParser (exprparser.py)."""

    def plan(self, node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not self.scope.is_local(node.func.id):
            name = node.func.id
            if name == "range":
                return self.range_plan(node)
            if name == "enumerate":
                return self.enumerate_plan(node)
            if name == "zip":
                return self.zip_plan(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("keys", "values", "items") and not node.args and not node.keywords:
            d = self.value(node.func.value)
            if d.ty.kind == "dict":
                return self.iterator_plan(node, "iter_" + node.func.attr, d)
        constant = self.scope.module.names.constants.get(node.id) if isinstance(node, ast.Name) and \
            self.scope.module_name(node.id) else None
        if isinstance(constant, range):  # `for i in SLOTS` where SLOTS = range(4)
            return self.range_plan(value_node(constant, node))
        e = self.frozen_display(node) or self.value(node)
        if e.ty == OBJECT:  # a boxed iterable: CPython's iteration of it, as a list
            e = boxed.iterable(e)
        kinds = {"list": "iter_list", "vtuple": "iter_list", "str": "iter_str", "dict": "iter_keys",
                 "set": "iter_set"}
        if e.ty.kind == "tuple" and e.ty.args and all(a == e.ty.args[0] for a in e.ty.args):
            e = self.tuple_as_list(e)  # `for dx, dy in DIRECTIONS`: a tuple's items, in order
        if e.ty.kind not in kinds:
            raise CompileError(node, "ForIter", f"iterating {e.ty.text}")
        return self.iterator_plan(node, kinds[e.ty.kind], e)

    def tuple_as_list(self, e):
        """A fresh list of the items of a tuple whose items have one type."""
        t = self.scope.temp("tuple", e.ty)
        ty = list_of(e.ty.args[0])
        items = [ir.fn("ast.ContainerGetItem")(t.node, ir.const_int(i).node) for i in range(len(e.ty.args))]
        return ir.let(t, e, ir.E(ir.fn("ast.ListLiteral")(ty.node, items), ty, borrowed=e.borrowed))

    def iterator_plan(self, node, op, source):
        op_call = ir.fn("ast.PrimCall")
        start = op_call(INT.node, ir.fn("ast.Op")(op), [source.node])  # the op computes the iterator type
        it = self.scope.temp("it", iterator_type(ir.fn("runtime.NodeGetAttr")(start, "checked_type")))
        item = ir.E(op_call(INT.node, ir.fn("ast.Op")("iter_value"), [it.node]), self.item_type(source.ty, op),
                    borrowed=source.borrowed)
        cond = ir.E(op_call(BOOL.node, ir.fn("ast.Op")("iter_next"), [it.node]), BOOL)
        return Plan([ir.stmt("AllocaVarStmt", it.node, start)], cond, item)

    def item_type(self, source, op):
        if op in ("iter_list", "iter_set"):
            return source.elem
        if op == "iter_str":
            return STR
        k, v = source.args
        return {"iter_keys": k, "iter_values": v, "iter_items": tuple_of((k, v))}[op]

    def range_plan(self, node):
        if node.keywords or not 1 <= len(node.args) <= 3:
            raise CompileError(node, "RangeArg", "range() takes 1 to 3 positional arguments")
        args = []
        for a in node.args:
            e = self.value(a)
            if e.ty == BOOL:
                e = ir.call_op("int", [e], INT)
            if e.ty == OBJECT:  # an int within int64 (else CPython runs range() on it)
                e = boxed.unbox(e, INT)
            if e.ty != INT:
                raise CompileError(a, "RangeArg", "range() arguments must be int")
            args.append((a, e))
        setup = []

        # range()'s arguments are evaluated once, in order, before the loop.
        def keep(e, hint):
            # Always a copy: the body may reassign a variable range() was given.
            t = self.scope.temp(hint, INT)
            setup.append(ir.stmt("AllocaVarStmt", t.node, e.node))
            return t

        if len(args) == 1:
            start, stop, step_src = ir.const_int(0), args[0][1], None
        else:
            start, stop = args[0][1], args[1][1]
            step_src = args[2] if len(args) == 3 else None
        cur = keep(start, "range.it")
        stop = keep(stop, "range.stop")
        step = 1
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
        # Advancing before the body keeps `continue` correct and makes
        # assignments to the target irrelevant to the iteration, as in CPython;
        # the checked add falls back when a range ends within a step of INT64_MAX.
        advance = ir.stmt("AssignStmt", cur.node, ir.binary("PrimAdd", cur, step_e, INT).node)
        return Plan(setup, cond, cur, [advance])

    def enumerate_plan(self, node):
        if node.keywords or not 1 <= len(node.args) <= 2:
            raise CompileError(node, "Enumerate", "enumerate(iterable[, start])")
        inner = self.plan(node.args[0])
        start = ir.const_int(0)
        if len(node.args) == 2:
            start = self.value(node.args[1])
            if start.ty != INT:
                raise CompileError(node.args[1], "Enumerate", "enumerate() start must be int")
        count = self.scope.temp("enum", INT)
        setup = inner.setup + [ir.stmt("AllocaVarStmt", count.node, start.node)]
        item = ir.E(ir.fn("ast.TupleLiteral")([count.node, inner.item.node]), tuple_of((INT, inner.item.ty)),
                    borrowed=inner.item.borrowed)
        advance = inner.advance + [ir.stmt("AssignStmt", count.node, ir.binary("PrimAdd", count, ir.const_int(1),
                                                                               INT).node)]
        return Plan(setup, inner.cond, item, advance)

    def zip_plan(self, node):
        if node.keywords or len(node.args) != 2:
            raise CompileError(node, "Zip", "zip() of two iterables")
        a, b = self.plan(node.args[0]), self.plan(node.args[1])
        item = ir.E(ir.fn("ast.TupleLiteral")([a.item.node, b.item.node]), tuple_of((a.item.ty, b.item.ty)),
                    borrowed=a.item.borrowed or b.item.borrowed)
        return Plan(a.setup + b.setup, ir.binary("PrimAnd", a.cond, b.cond, BOOL), item, a.advance + b.advance)

    # ---- targets ----------------------------------------------------------------
    def bind_target(self, target, item, bind_name, out, items=False):
        """Assign @p item to a Name or a (nested) tuple of names (@p items: or of items and
        fields, `a[i], a[j] = a[j], a[i]`, which @p bind_name stores); appends statements to @p out."""
        if isinstance(target, ast.Name) or (items and isinstance(target, (ast.Subscript, ast.Attribute))):
            out.extend(bind_name(target, item))
            return
        if not isinstance(target, (ast.Tuple, ast.List)) or any(isinstance(t, ast.Starred) for t in target.elts):
            raise CompileError(target, "ForTarget", "the target must be a name or a tuple of names")
        # a, b = t of any length (`key, value = line.split("=", 1)`): CPython's ValueError if it differs.
        sized = item.ty.kind in ("vtuple", "list")
        if not sized and (item.ty.kind != "tuple" or len(item.ty.args) != len(target.elts)):
            raise CompileError(target, "Unpack", f"unpacking {item.ty.text} into {len(target.elts)} names")
        if not item.pure:
            t = self.scope.temp("unpack", item.ty)
            out.append(ir.stmt("AllocaVarStmt", t.node, item.node))
            item = ir.E(t.node, t.ty, True, item.borrowed)
        if sized:  # the length is checked before any name is bound; CPython raises the ValueError itself
            wrong = ir.binary("PrimNE", ir.call_op("len", [item], INT), ir.const_int(len(target.elts)), BOOL)
            out.append(ir.stmt("IfStmt", wrong.node, ir.seq([ir.expr_stmt(ir.call_op("raise_in_python", [], BOOL))]),
                               None))
        for i, sub in enumerate(target.elts):
            part = ir.E(ir.fn("ast.ContainerGetItem")(item.node, ir.const_int(i).node),
                        item.ty.elem if sized else item.ty.args[i], borrowed=item.borrowed)
            self.bind_target(sub, part, bind_name, out, items)
