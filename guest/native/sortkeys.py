"""Expression family, sorting by a key: `sorted(xs, key=f)`,
`xs.sort(key=f)`, `min(xs, key=f)` and `max(xs, key=f)` with `f` a one-parameter lambda, a built-in (`len`, `abs`,
`str`, ...), a module function or `str.lower`-like method.

A key lambda may have defaults (`key=lambda r, i=i: r[i]` in a loop, the
idiom that pins a loop variable): CPython evaluates them once, when it
makes the lambda, after the iterable, then calls the lambda with one
argument per item. They are evaluated once here too, before the keys; a
default that computes (which could raise before the iterable is read) is
refused, a name or constant reads nothing that could fail or change.

CPython computes every key first, in order, then sorts comparing keys
alone, stably. Native code decorates, sorts and undecorates: a list of
(key, position, item), where the position breaks ties so items are never
compared; `reverse=True` sorts (key, -position) in descending order, which
keeps items of equal keys in their original order, as CPython's reverse
sort does. Keys holding floats are refused (the native sort of NaN differs)."""
import ast
import copy

from . import irbuilder as ir
from .errors import CompileError
from .typemodel import BOOL, INT

_KEY_BUILTINS = {"len", "abs", "str", "int", "ord", "bool", "float", "min", "max", "sum", "sorted"}
_VALUE_ERROR = 3  # SPINE_FAULT_VALUE
_ITEM, _POS, _SORTED, _ENTRY = "<key.item>", "<key.pos>", "<key.sorted>", "<key.entry>"


class SortKeyExprs:
    """Mixed into ExprParser (exprparser.py)."""

    def sorted_by_key(self, node, src, key, reverse):
        rev = False
        if reverse is not None:
            if not (isinstance(reverse, ast.Constant) and isinstance(reverse.value, bool)):
                raise CompileError(reverse, "SortKey", "with key=, reverse must be True or False as written")
            rev = reverse.value
        item = ast.Name(_ITEM, ast.Load())
        pos = ast.Name(_POS, ast.Load())
        made, frame = self.key_defaults(key)
        entry = ast.Tuple([self.key_body(key), ast.UnaryOp(ast.USub(), pos) if rev else pos, item], ast.Load())
        target = ast.Tuple([ast.Name(_POS, ast.Store()), ast.Name(_ITEM, ast.Store())], ast.Store())
        source = ast.Call(ast.Name("enumerate", ast.Load()), [src], [])
        decorated = ast.ListComp(entry, [ast.comprehension(target, source, [], 0)])
        self.scope.comprehensions.append(frame)
        try:
            lst = self.value(ast.fix_missing_locations(ast.copy_location(decorated, node)))
        finally:
            self.scope.comprehensions.pop()
        key_ty = lst.ty.elem.args[0]
        if key_ty.has_float or key_ty.kind == "float":
            raise CompileError(key, "SortKey", f"sorting by {key_ty.text} keys (NaN orders differently natively)")
        ordered = self.sorted_list(node, lst, {"reverse": ast.Constant(rev)})
        t = self.scope.temp("sorted", ordered.ty)
        frame = {_SORTED: t}
        self.scope.comprehensions.append(frame)
        try:
            sub = ast.Subscript(ast.Name(_ENTRY, ast.Load()), ast.Constant(2), ast.Load())
            undecorate = ast.ListComp(sub, [ast.comprehension(ast.Name(_ENTRY, ast.Store()),
                                                              ast.Name(_SORTED, ast.Load()), [], 0)])
            items = self.value(ast.fix_missing_locations(ast.copy_location(undecorate, node)))
        finally:
            self.scope.comprehensions.pop()
        out = ir.let(t, ordered, items)
        for temp, value in reversed(made):
            out = ir.let(temp, value, out)
        return out

    def key_defaults(self, key):
        """([(temp, value)], frame): a key lambda's defaults, evaluated once each in order, and
        the names its parameters after the first are read by (the first is each item)."""
        if not isinstance(key, ast.Lambda) or not key.args.defaults:
            return [], {}
        made, frame = [], {}
        params = key.args.args[len(key.args.args) - len(key.args.defaults):]
        for p, d in zip(params, key.args.defaults):
            if not isinstance(d, (ast.Name, ast.Constant)):
                raise CompileError(d, "SortKey", "a key lambda's default that computes stays Python (CPython "
                                   "evaluates it after the iterable, natively it would be before)")
            value = self.value(d)
            t = self.scope.temp("key." + p.arg, value.ty)
            made.append((t, value))
            frame[_default(p.arg)] = ir.E(t.node, t.ty, True, value.borrowed)
        return made, frame

    def extreme_by_key(self, node, name, src, key):
        """max(xs, key=f) / min(xs, key=f): CPython keeps the first item of the largest
        (smallest) key, which is item 0 of the stable sort by key, descending for max (a
        stable reverse sort keeps equal keys in their order); keys are computed once each,
        in order, as CPython does. Empty: CPython's ValueError."""
        ordered = self.sorted_by_key(node, src, key, ast.Constant(name == "max"))
        t = self.scope.temp("extreme", ordered.ty)
        nonempty = ir.binary("PrimGT", ir.call_op("len", [t], INT), ir.const_int(0), BOOL)
        empty = ir.call_op("raise_text", [ir.const_int(_VALUE_ERROR), ir.const_str(f"{name}() arg is an empty sequence")],
                           BOOL)
        index = ir.if_then_else(ir.binary("PrimOr", nonempty, empty, BOOL), ir.const_int(0), ir.const_int(0))
        item = ir.E(ir.fn("ast.ContainerGetItem")(t.node, index.node), ordered.ty.elem, borrowed=ordered.borrowed)
        return ir.let(t, ordered, item)

    def key_body(self, key):
        """The key of the item named _ITEM, as an expression."""
        item = ast.Name(_ITEM, ast.Load())
        if isinstance(key, ast.Lambda):
            a = key.args
            if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or not a.args or \
                    len(a.args) - len(a.defaults) > 1:
                raise CompileError(key, "SortKey", "a key lambda takes one parameter, the others with defaults")
            for sub in ast.walk(key.body):
                if isinstance(sub, (ast.Lambda, ast.comprehension, ast.NamedExpr)):
                    raise CompileError(sub, "SortKey", "a key lambda with nested scopes")
            names = {p.arg: _default(p.arg) for p in a.args[1:]}
            names[a.args[0].arg] = _ITEM
            return _Rename(names).visit(copy.deepcopy(key.body))
        if isinstance(key, ast.Name) and not self.scope.is_local(key.id) and \
                (key.id in _KEY_BUILTINS or key.id in self.scope.signatures):
            return ast.Call(ast.Name(key.id, ast.Load()), [item], [])
        if isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) and key.value.id == "str" and \
                not self.scope.is_local("str"):
            return ast.Call(ast.Attribute(item, key.attr, ast.Load()), [], [])
        raise CompileError(key, "SortKey", f"key={ast.unparse(key)}: a lambda, a built-in or a module function")


def _default(param):
    """The name a key lambda's parameter @p param is read by: its default, evaluated once."""
    return f"<key.default.{param}>"


class _Rename(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names  # a parameter -> the name it is read by

    def visit_Name(self, node):
        return ast.copy_location(ast.Name(self.names[node.id], node.ctx), node) if node.id in self.names else node
