"""Statement family of the parser: function bodies -> C++ AST statements,
with definite assignment (scope.Flow), exact variable types, the
read-only rule for arguments (borrow analysis, see compiler.py), and for
loops lowered to WhileStmt through loops.Plan."""
import ast

from . import boxed
from . import inheritance
from . import irbuilder as ir
from . import optional
from . import printing
from . import protocols
from .calls import SET_ALGEBRA
from .errors import CompileError
from .exceptions import ExceptionStatements
from .exprparser import ExprParser
from .irbuilder import E
from .scope import Flow
from .typemodel import INT, NONE, OBJECT, dict_of, fresh_borrowed
from .typerules import annotation_type, require_same

_SHADOWING = {"range", "abs", "min", "max", "int", "float", "bool", "str", "len", "sum", "sorted", "list", "set",
              "dict", "ord", "chr", "any", "all", "enumerate", "zip"}


class StmtParser(ExceptionStatements):
    def __init__(self, scope, ret):
        self.scope = scope
        self.ret = ret
        self.exprs = ExprParser(scope)
        self.depth = 0        # block nesting: locals first assigned at depth 0 are defined in place
        self.loops = []       # per enclosing loop: [saw_break]
        self.declared = {}    # `x: T` without a value: the type later assignments must have
        self.handlers = []    # per enclosing except clause of a boxed function: its exception (a bare raise's)

    def expr(self, node, flow, expected=None):
        return self.exprs.parse(node, flow, expected)

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
        return ir.seq(body), end

    # ---- simple statements --------------------------------------------------
    def visit_Pass(self, node, flow):
        return []

    def visit_Expr(self, node, flow):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return []  # docstring
        self.exprs.flow = flow
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "sort" and \
                isinstance(call.func.value, ast.Name) and any(k.arg == "key" for k in call.keywords):
            return self.sort_by_key(node, call, flow)
        if printing.is_print(self.scope, call):
            return [ir.expr_stmt(printing.print_statement(self.exprs, call))]
        e = self.exprs.visit(node.value)
        if e.node is None:
            raise CompileError(node, "EmptyLiteral", "an empty literal on its own")
        # Kept for its errors: `x // 0` alone still raises.
        return [ir.expr_stmt(e)]

    def sort_by_key(self, node, call, flow):
        """xs.sort(key=f): sorted(xs, key=f) (every key first, as CPython), then xs takes the
        items in their new order; a key that faults leaves xs as it was, as in CPython."""
        kw = {k.arg: k.value for k in call.keywords}
        if call.args or set(kw) - {"key", "reverse"}:
            raise CompileError(call, "CallKeywords", "list.sort() takes key= and reverse= only")
        target = call.func.value
        if self.expr(target, flow).ty.kind != "list":
            raise CompileError(call, "Method", "sort(key=...) of a list only")
        ordered = self.exprs.sorted_by_key(call, target, kw["key"], kw.get("reverse"))
        t = self.scope.temp("sorted", ordered.ty)
        out = [ir.stmt("AllocaVarStmt", t.node, ordered.node)]
        self.scope.comprehensions.append({"<sorted.items>": E(t.node, t.ty, True)})
        try:
            for method, args in (("clear", []), ("extend", [ast.Name("<sorted.items>", ast.Load())])):
                method_call = ast.Call(ast.Attribute(target, method, ast.Load()), args, [])
                out.append(ir.expr_stmt(self.exprs.visit(ast.fix_missing_locations(ast.copy_location(method_call,
                                                                                                      call)))))
        finally:
            self.scope.comprehensions.pop()
        return out

    def widen(self, name):
        """A local that receives a boxed value as well as typed ones is boxed itself (Python keeps
        whatever it is given); annotated variables and parameters keep their declared type."""
        if name not in self.declared and name not in self.scope.parameters and self.scope.lookup(name) is not None:
            self.scope.knowledge.pin(name, OBJECT)

    def assign(self, node, name, value, flow):
        if value.ty.kind == "pending":
            # `x = []`: typed by its first telling use, then lowered again (scope.Restart).
            if self.scope.lookup(name) is not None and name not in self.scope.pending:
                raise CompileError(node, "EmptyLiteral", f"{name!r} already has a type; annotate the literal")
            self.scope.pending[name] = value.ty
            flow.assigned.add(name)
            return []
        if name in self.scope.pending and self.scope.pending[name].name == value.ty.kind:
            self.scope.knowledge.pin(name, value.ty)  # `x = []` ... `x = <typed value>`
        if name in self.scope.pending and self.scope.pending[name].name == "optional":
            self.scope.knowledge.pin(name, optional.optional_of(value.ty))  # `x = None` ... `x = <value>`
        if value.borrowed:
            self.scope.knowledge.borrow(name)
        target = self.scope.lookup(name)
        if target is None:
            if name in self.scope.signatures or name in _SHADOWING or name in self.scope.module.classes:
                raise CompileError(node, "ShadowedName", f"assignment to {name!r} shadows a function")
            target = self.scope.define(name, value.ty)
            flow.assigned.add(name)
            if self.depth == 0:
                return [ir.stmt("AllocaVarStmt", target.node, value.node)]
            # First assigned in a nested block: Python's function scope means it
            # lives on after the block, so it is declared at the function's top.
            self.scope.hoisted.append(target)
        else:
            value = optional.coerce(value, target.ty)
            require_same(node, target.ty, value.ty, f"variable {name!r}")
            flow.assigned.add(name)
        return [ir.stmt("AssignStmt", target.node, value.node)]

    def expected_for(self, name):
        t = self.scope.lookup(name)
        if t is not None:
            return t.ty
        return self.scope.knowledge.pinned.get(name) or self.declared.get(name)

    def store(self, node, target, value, flow):
        """One target of an unpacking assignment gets @p value (already evaluated)."""
        if isinstance(target, ast.Name):
            return self.assign(target, target.id, value, flow)
        if isinstance(target, ast.Subscript):
            return self.set_item(node, target, None, flow, value)
        return self.set_attr(node, target, None, flow, value)

    def chained_assign(self, node, flow):
        """a = b[i] = value: the value once, then each target from left to right (all share it)."""
        if not all(isinstance(t, (ast.Name, ast.Subscript, ast.Attribute)) for t in node.targets):
            raise CompileError(node, "AssignTarget", "chained assignment to a tuple")
        first = node.targets[0]
        expected = self.expected_for(first.id) if isinstance(first, ast.Name) else None
        value = self.expr(node.value, flow, expected)
        out = []
        if not value.pure:
            t = self.scope.temp("chain", value.ty)
            out.append(ir.stmt("AllocaVarStmt", t.node, value.node))
            value = E(t.node, t.ty, True, value.borrowed)
        self.depth += 1  # a name first bound here is declared at the top (as for unpacking)
        try:
            for target in node.targets:
                out += self.store(node, target, value, flow)
        finally:
            self.depth -= 1
        return out

    def visit_Assign(self, node, flow):
        if len(node.targets) != 1:
            return self.chained_assign(node, flow)
        target = node.targets[0]
        if isinstance(target, ast.Name):
            value = self.exprs.parse(node.value, flow, self.expected_for(target.id), allow_pending=True)
            if boxed.is_unboxed(value):
                self.widen(target.id)
            return self.assign(node, target.id, value, flow)
        if isinstance(target, ast.Subscript):
            return self.set_item(node, target, node.value, flow)
        if isinstance(target, ast.Attribute):
            return self.set_attr(node, target, node.value, flow)
        if isinstance(target, (ast.Tuple, ast.List)):
            value = self.expr(node.value, flow)
            out = []
            self.depth += 1  # names bound by unpacking may be new: declare them at the top
            try:
                self.exprs.bind_target(target, value, lambda t, v: self.store(node, t, v, flow), out, items=True)
            finally:
                self.depth -= 1
            return out
        raise CompileError(node, "AssignTarget", f"assignment to {type(target).__name__}")

    def set_item(self, node, target, value_node, flow, value=None):
        name = target.value.id if isinstance(target.value, ast.Name) else None
        if name in self.scope.pending and value is None:
            k, v = self.expr(target.slice, flow), self.expr(value_node, flow)
            kind = self.scope.pending[name].name
            if kind != "dict":
                raise CompileError(node, "EmptyLiteral", f"item assignment to the empty {kind} {name!r}")
            self.scope.knowledge.pin(name, dict_of(k.ty, v.ty))
        obj = self.expr(target.value, flow)
        if obj.ty == OBJECT and not isinstance(target.slice, ast.Slice):  # CPython's own obj[k] = v
            v = value if value is not None else self.expr(value_node, flow)
            return [ir.expr_stmt(boxed.setitem(self.scope, node, obj, self.expr(target.slice, flow), v))]
        if obj.ty.kind not in ("list", "dict"):
            raise CompileError(target, "SetItem", f"item assignment to {obj.ty.text}")
        self.no_mutation(target, obj, "item assignment", target.value)
        if obj.ty.kind == "list":
            index = self.exprs.index_value(target.slice) if not isinstance(target.slice, ast.Slice) else None
            if index is None or index.ty != INT:
                raise CompileError(target.slice, "IndexType", "list indices must be int (slice assignment is "
                                   "not supported)")
            want = obj.ty.elem
        else:
            index = self.expr(target.slice, flow, obj.ty.args[0])
            if index.ty != obj.ty.args[0]:
                raise CompileError(target.slice, "IndexType", f"key of type {index.ty.text} for {obj.ty.text}")
            want = obj.ty.args[1]
        value = boxed.coerce(node, optional.coerce(value, want), want) if value is not None else \
            self.expr(value_node, flow, want)
        require_same(node, want, value.ty, f"element of {obj.ty.text}")
        self.exprs.no_borrowed_store(node, value, "item assignment")
        return [ir.expr_stmt(E(ir.fn("ast.ContainerSetItem")(obj.node, index.node, value.node), NONE))]

    def set_attr(self, node, target, value_node, flow, value=None):
        init = self.scope.init_of
        is_self = isinstance(target.value, ast.Name) and target.value.id == "self" and init is not None
        obj = self.scope.read("self") if is_self else self.expr(target.value, flow)
        if obj.ty.kind != "class":
            raise CompileError(target, "Attribute", f"attribute assignment on {obj.ty.text}")
        info = self.scope.module.classes[obj.ty.name]
        if info.dataclass is not None and info.dataclass.frozen and not (is_self and info.dataclass.generated_init):
            raise CompileError(target, "FrozenInstance", f"cannot assign to field {target.attr!r} of {obj.ty.name} "
                               f"(CPython raises {info.dataclass.frozen_error})")
        if target.attr not in info.fields:
            raise CompileError(target, "UnknownField", f"{obj.ty.name} has no field {target.attr!r} (declare it "
                               "in the class body)")
        want = info.fields[target.attr]
        value = optional.coerce(value, want) if value is not None else self.expr(value_node, flow, want)
        require_same(node, want, value.ty, f"field {target.attr!r}")
        self.exprs.no_borrowed_store(node, value, "a field assignment")
        if is_self:
            flow.assigned.add("self." + target.attr)
        return [ir.expr_stmt(E(ir.fn("ast.ClassSetAttr")(obj.node, target.attr, value.node), NONE))]

    def no_mutation(self, node, obj, what, receiver=None):
        if obj.borrowed and not self.exprs.writes_back(receiver):
            raise CompileError(node, "BorrowedMutation", f"{what} would change an argument; native code works on "
                               "a copy of it, so the caller would not see the change")

    def visit_AnnAssign(self, node, flow):
        classes = {n: c.ty for n, c in self.scope.module.classes.items()}
        if isinstance(node.target, ast.Attribute):
            if node.value is None:
                raise CompileError(node, "AnnAssign", "annotated attribute without a value")
            return self.set_attr(node, node.target, node.value, flow)
        if not isinstance(node.target, ast.Name):
            raise CompileError(node, "AnnAssign", "annotated assignment needs a name")
        name = node.target.id
        want = annotation_type(node.annotation, f"variable {name!r}", classes)
        if node.value is None:
            self.declared[name] = want
            return []
        value = self.expr(node.value, flow, want)
        require_same(node, want, value.ty, f"variable {name!r}")
        return self.assign(node, name, value, flow)

    def aug_binop(self, node, op, current, other):
        """current OP= other: CPython's in-place operator where a boxed value takes part."""
        if OBJECT in (current.ty, other.ty):
            return boxed.binary(self.scope, node, op, current, other, inplace=True)
        return self.exprs.binop(node, op, current, other)

    def visit_AugAssign(self, node, flow):
        t = node.target
        op = type(node.op)
        if isinstance(t, ast.Name):
            current = self.expr(t, flow)
            if current.ty.kind == "list" and op is ast.Add:
                # lst += other extends the list in place (everyone sharing it sees it).
                self.no_mutation(t, current, "+=", t)
                other = self.expr(node.value, flow, current.ty)
                self.exprs.no_borrowed_store(node, E(other.node, other.ty, False,
                                                     fresh_borrowed(other.borrowed, other.ty)), "+=")
                call = ir.fn("ast.ContainerMethodCall")(current.node, "extend", [other.node])
                return [ir.expr_stmt(E(call, NONE))]
            if current.ty.kind == "set" and op in SET_ALGEBRA:
                # s |= t (and &=, -=, ^=) changes s in place, as CPython's set_ior & co. do.
                self.no_mutation(t, current, f"{op.__name__}=", t)
                other = self.expr(node.value, flow, current.ty)
                require_same(node, current.ty, other.ty, f"{op.__name__}= on {t.id!r}")
                method = "update" if op is ast.BitOr else SET_ALGEBRA[op] + "_update"
                return [ir.expr_stmt(E(ir.fn("ast.ContainerMethodCall")(current.node, method, [other.node]), NONE))]
            if current.ty.kind == "class":  # __iadd__ (else __add__): protocols.py
                value = protocols.binary(self.exprs, node, op, current, self.expr(node.value, flow), inplace=True)
                require_same(node, current.ty, value.ty, f"variable {t.id!r}")
                return self.assign(node, t.id, value, flow)
            if current.ty.mutable:
                raise CompileError(node, "AugAssign", f"{op.__name__}= on {current.ty.text}")
            hint = current.ty if current.ty.kind == "vtuple" else None  # t += (x,): a new tuple, as in Python
            value = self.aug_binop(node, op, current, self.expr(node.value, flow, hint))
            if value.ty == OBJECT and current.ty != OBJECT:
                self.widen(t.id)
                value = boxed.coerce(node, value, current.ty)
            require_same(node, current.ty, value.ty, f"variable {t.id!r}")
            return self.assign(node, t.id, value, flow)
        if isinstance(t, (ast.Subscript, ast.Attribute)):
            return self.augment_in_place(node, t, op, flow)
        raise CompileError(node, "AugAssignTarget", f"augmented assignment to {type(t).__name__}")

    def augment_in_place(self, node, t, op, flow):
        """d[k] += v / obj.x += v: the container (and key) are evaluated once."""
        out = []

        def keep(e, hint):
            if e.pure:
                return e
            v = self.scope.temp(hint, e.ty)
            out.append(ir.stmt("AllocaVarStmt", v.node, e.node))
            return E(v.node, v.ty, True, e.borrowed)

        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" and \
                self.scope.init_of is not None:
            flow.require(t, "self." + t.attr)
        obj = keep(self.expr(t.value, flow), "aug.obj")
        if self.exprs.writes_back(t.value):  # xs[i] += v on a list parameter copied back
            obj = E(obj.node, obj.ty, obj.pure, False)
        holder = ast.Name("<aug.obj>", ast.Load())
        frame = {"<aug.obj>": obj}
        self.scope.comprehensions.append(frame)
        try:
            if isinstance(t, ast.Subscript):
                if isinstance(t.slice, ast.Slice):
                    raise CompileError(t, "AugAssignTarget", "augmented assignment to a slice")
                key = keep(self.expr(t.slice, flow) if obj.ty.kind == "dict" else self.exprs.index_value(t.slice),
                           "aug.key")
                frame["<aug.key>"] = key
                target = ast.copy_location(ast.Subscript(holder, ast.Name("<aug.key>", ast.Load()), ast.Store()), t)
            else:
                target = ast.copy_location(ast.Attribute(holder, t.attr, ast.Store()), t)
            current = self.expr(ast.copy_location(ast.Subscript(target.value, target.slice, ast.Load())
                                                  if isinstance(t, ast.Subscript)
                                                  else ast.Attribute(holder, t.attr, ast.Load()), t), flow)
            value = self.aug_binop(node, op, current, self.expr(node.value, flow))
            if isinstance(t, ast.Subscript):
                out += self.set_item(node, target, None, flow, value)
            else:
                out += self.set_attr(node, target, None, flow, value)
        finally:
            self.scope.comprehensions.pop()
        return out

    def visit_Delete(self, node, flow):
        out = []
        for t in node.targets:
            if not isinstance(t, ast.Subscript) or isinstance(t.slice, ast.Slice):
                raise CompileError(t, "Delete", "only `del container[index]` is supported")
            obj = self.expr(t.value, flow)
            if obj.ty.kind not in ("list", "dict"):
                raise CompileError(t, "Delete", f"del on {obj.ty.text}")
            self.no_mutation(t, obj, "del", t.value)
            index = self.exprs.index_value(t.slice) if obj.ty.kind == "list" else self.expr(t.slice, flow)
            out.append(ir.expr_stmt(E(ir.fn("ast.ContainerDelItem")(obj.node, index.node), NONE)))
        return out

    def visit_Return(self, node, flow):
        if self.scope.init_of is not None:
            self.exprs.flow = flow
            self.exprs.require_all_fields(node)
        if node.value is None or (self.ret == NONE and isinstance(node.value, ast.Constant) and
                                  node.value.value is None):
            flow.reachable = False
            if self.ret.kind == "optional":  # a bare `return` returns None
                return [ir.stmt("ReturnStmt", optional.none_of(self.ret).node)]
            if self.ret == OBJECT:
                return [ir.stmt("ReturnStmt", boxed.box(node, optional.none_literal()).node)]
            if self.ret != NONE:
                raise CompileError(node, "ReturnNone", "functions must return a value")
            return [ir.stmt("ReturnStmt", None)]
        value = self.expr(node.value, flow, self.ret)
        if value.ty != self.ret and boxed.reboxable(value.ty, self.ret) and not value.borrowed:
            value = boxed.rebox(node, value, self.ret)  # a new container is handed over: its copy is as good
        if value.ty != self.ret:
            # CPython does not convert to the annotation; the native result must have the same type.
            raise CompileError(node, "ReturnType", f"returns {value.ty.text}, declared {self.ret.text}")
        if value.borrowed:
            raise CompileError(node, "ReturnBorrowed", "returning (part of) a mutable argument: the caller would "
                               "get a copy instead of the object itself")
        flow.reachable = False
        return [ir.stmt("ReturnStmt", value.node)]

    def visit_Break(self, node, flow):
        if not self.loops:
            raise CompileError(node, "Break", "'break' outside loop")
        self.loops[-1][0] = True
        flow.reachable = False
        return [ir.stmt("Break")]

    def visit_Continue(self, node, flow):
        if not self.loops:
            raise CompileError(node, "Continue", "'continue' outside loop")
        flow.reachable = False
        return [ir.stmt("Continue")]

    # ---- compound statements ------------------------------------------------
    def visit_If(self, node, flow):
        self.exprs.flow = flow
        known = inheritance.constant_truth(node.test, self.scope)
        if known is not None:  # only the branch CPython can take
            body, end = self.nested(node.body if known else node.orelse, flow.copy())
            flow.assigned, flow.reachable = end.assigned, end.reachable
            return [body]
        cond = self.exprs.condition(node.test)
        narrow = inheritance.narrowing(node, self.scope) or boxed.narrowing(node, self.scope)
        if narrow is None:
            then_body, then_flow = self.nested(node.body, flow.copy())
        else:
            saved = self.scope.narrowed.get(narrow[0])
            self.scope.narrowed[narrow[0]] = narrow[1]
            try:
                then_body, then_flow = self.nested(node.body, flow.copy())
            finally:
                self.scope.narrowed.pop(narrow[0])
                if saved is not None:
                    self.scope.narrowed[narrow[0]] = saved
        else_body, else_flow = (None, flow.copy())
        if node.orelse:
            else_body, else_flow = self.nested(node.orelse, flow.copy())
        joined = Flow.join(then_flow, else_flow)
        flow.assigned, flow.reachable = joined.assigned, joined.reachable
        return [ir.stmt("IfStmt", cond.node, then_body, else_body)]

    def loop_body(self, stmts, flow, prologue=()):
        self.loops.append([False])
        self.depth += 1
        try:
            body, _ = self.block(stmts, flow)
        finally:
            self.depth -= 1
            saw_break = self.loops.pop()[0]
        return ir.seq(list(prologue) + body), saw_break

    def visit_While(self, node, flow):
        if node.orelse:
            raise CompileError(node, "WhileElse", "while ... else is not supported")
        self.exprs.flow = flow
        cond = self.exprs.condition(node.test)
        body, saw_break = self.loop_body(node.body, flow.copy())
        forever = isinstance(node.test, ast.Constant) and node.test.value is True
        # The body may run zero times, so nothing it assigns is definite afterwards;
        # `while True` without break is only left by return.
        if forever and not saw_break:
            flow.reachable = False
        return [ir.stmt("WhileStmt", cond.node, body)]

    def visit_For(self, node, flow):
        if node.orelse:
            raise CompileError(node, "ForElse", "for ... else is not supported")
        self.exprs.flow = flow
        plan = self.exprs.plan(node.iter)
        body_flow = flow.copy()
        prologue = []
        self.depth += 1
        try:
            self.exprs.bind_target(node.target, plan.item, lambda t, v: self.assign(t, t.id, v, body_flow), prologue)
        finally:
            self.depth -= 1
        body, _ = self.loop_body(node.body, body_flow, prologue + plan.advance)
        return plan.setup + [ir.stmt("WhileStmt", plan.cond.node, body)]

