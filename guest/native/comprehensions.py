"""Expression family, comprehensions: [e for ...], {e for ...},
{k: v for ...}, and generator expressions given to sum/min/max/sorted/
list/set (built as a list first: nothing observable differs for pure
code) or to any/all (which stop at the first decisive element, as
CPython's do). Each lowers to a BlockExpr, so the loop runs exactly where
Python evaluates the expression; the comprehension's variables are its
own, as in Python 3."""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import E
from .typemodel import BOOL, dict_of, list_of, set_of, vtuple_of


class ComprehensionExprs:
    """Mixed into ExprParser (exprparser.py)."""

    def clauses(self, generators, emit, guard=None):
        """The loops of `for ... in ... if ...` clauses around emit() (the innermost statements)."""
        frame = {}
        self.scope.comprehensions.append(frame)
        try:
            return self._clause(generators, 0, frame, emit, guard)
        finally:
            self.scope.comprehensions.pop()

    def _clause(self, gens, i, frame, emit, guard):
        if i == len(gens):
            return emit()
        g = gens[i]
        if g.is_async:
            raise CompileError(g.target, "AsyncComprehension")
        plan = self.plan(g.iter)

        def bind_name(target, item):
            v = self.scope.temp("comp." + target.id, item.ty)
            frame[target.id] = E(v.node, v.ty, True, item.borrowed)
            return [ir.stmt("AllocaVarStmt", v.node, item.node)]

        body = []
        self.bind_target(g.target, plan.item, bind_name, body)
        body += plan.advance
        conds = [self.condition(c) for c in g.ifs]
        inner = self._clause(gens, i + 1, frame, emit, guard)
        for c in reversed(conds):
            inner = [ir.stmt("IfStmt", c.node, ir.seq(inner), None)]
        cond = plan.cond
        if guard is not None:  # any()/all(): stop every loop once decided
            cond = ir.binary("PrimAnd", E(ir.fn("ast.PrimNot")(guard.node), BOOL), cond, BOOL)
        return plan.setup + [ir.stmt("WhileStmt", cond.node, ir.seq(body + inner))]

    def comprehension(self, node, kind, element):
        """The loops and, around them, the result: element() lowers one element (inside
        the loops) and returns (the result's type, statements adding it to the result)."""
        holder = {}

        def emit():
            ty, add = element()
            holder["var"] = res = self.scope.temp("comp.result", ty)
            return add(res)

        loops = self.clauses(node.generators, emit)
        res = holder["var"]
        body = [ir.stmt("AllocaVarStmt", res.node, self.empty(node, kind, res.ty).node)] + loops
        return E(ir.fn("ast.BlockExpr")(ir.seq(body), res.node), res.ty)

    def visit_ListComp(self, node, expected=None):
        want = expected.elem if expected is not None and expected.kind == "list" else None

        def element():
            e = self.value(node.elt, want)
            self.no_borrowed_store(node.elt, e, "a list comprehension")
            return list_of(e.ty), lambda res: [self.method_stmt(res, "append", [e])]

        return self.comprehension(node, "list", element)

    def visit_SetComp(self, node, expected=None):
        def element():
            e = self.value(node.elt)
            if not e.ty.set_member:
                raise CompileError(node.elt, "KeyType", f"{e.ty.text} cannot be a set member natively")
            return set_of(e.ty), lambda res: [self.method_stmt(res, "add", [e])]

        return self.comprehension(node, "set", element)

    def visit_DictComp(self, node, expected=None):
        def element():
            out = []
            k = self.value(node.key)
            if not k.pure:  # the key is evaluated before the value (Python 3.8+)
                t = self.scope.temp("comp.key", k.ty)
                out.append(ir.stmt("AllocaVarStmt", t.node, k.node))
                k = t
            v = self.value(node.value)
            self.no_borrowed_store(node.value, v, "a dict comprehension")
            if not k.ty.hashable:
                raise CompileError(node.key, "KeyType", f"{k.ty.text} cannot be a dict key natively")
            return dict_of(k.ty, v.ty), lambda res: out + [ir.expr_stmt(E(ir.fn("ast.ContainerSetItem")(
                res.node, k.node, v.node), v.ty))]

        return self.comprehension(node, "dict", element)

    def method_stmt(self, obj, method, args):
        return ir.expr_stmt(E(ir.fn("ast.ContainerMethodCall")(obj.node, method, [a.node for a in args]), obj.ty))

    def visit_GeneratorExp(self, node, expected=None):
        raise CompileError(node, "GeneratorExp", "generator expressions are supported as the argument of "
                           "sum/min/max/sorted/list/set/any/all and str.join")

    # ---- consumers of iterables ---------------------------------------------------
    def as_list(self, gen):
        """A generator expression as the list it would produce."""
        return self.visit_ListComp(ast.copy_location(ast.ListComp(gen.elt, gen.generators), gen))

    def collect(self, node, src):
        """list(src) for any iterable (range, enumerate, zip, dict views, ...)."""
        name = "<item>"
        comp = ast.ListComp(ast.Name(name, ast.Load()), [ast.comprehension(ast.Name(name, ast.Store()), src, [], 0)])
        return self.visit_ListComp(ast.copy_location(comp, node))

    def over_generator(self, node, name, kw):
        gen = node.args[0]
        if name in ("any", "all"):
            if len(node.args) != 1:
                raise CompileError(node, "Builtin", f"{name}() takes one argument")
            return self.any_all(node, name, gen.elt, gen.generators)
        lst = self.as_list(gen)
        if name == "list":
            return lst
        if name == "sorted":
            return self.sorted_list(node, lst, kw)
        if name == "set":
            return self.to_set(node, lst)
        if name == "tuple":  # tuple(f(x) for x in xs): the list it collects, as a tuple
            return ir.call_op("tuple_copy", [lst], vtuple_of(lst.ty.elem), borrowed=lst.borrowed)
        rest = [self.value(a) for a in node.args[1:]]
        return self.builtin_values(node, name, [lst] + rest)

    def any_all(self, node, name, elt, generators):
        """any()/all(): stop at the first element that decides, as CPython."""
        if generators is None:  # any(iterable): its items themselves
            item = "<item>"
            generators = [ast.comprehension(ast.Name(item, ast.Store()), elt, [], 0)]
            elt = ast.Name(item, ast.Load())
        done = self.scope.temp("any.done", BOOL)

        def emit():
            t = self.truth(elt, self.value(elt))
            hit = t if name == "any" else E(ir.fn("ast.PrimNot")(t.node), BOOL)
            return [ir.stmt("IfStmt", hit.node, ir.seq([ir.stmt("AssignStmt", done.node,
                                                                  ir.const_bool(True).node)]), None)]

        loops = self.clauses(generators, emit, guard=done)
        body = [ir.stmt("AllocaVarStmt", done.node, ir.const_bool(False).node)] + loops
        result = done if name == "any" else E(ir.fn("ast.PrimNot")(done.node), BOOL)
        return E(ir.fn("ast.BlockExpr")(ir.seq(body), result.node), BOOL)
