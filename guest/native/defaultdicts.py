"""collections.defaultdict locals, rewritten into the plain dicts native code has.

    counts: Dict[str, int] = defaultdict(int)
    for w in words:
        counts[w] += 1            # counts[w] = counts.setdefault(w, 0) + 1
    groups: Dict[int, List[str]] = defaultdict(list)
    groups[len(w)].append(w)      # groups.setdefault(len(w), []).append(w)

A read `d[k]` inserts the factory's value as __missing__ does (setdefault:
a fresh value, inserted only when k is missing, at the same place in the
order); `d.get(k)`, `k in d`, len, iteration and the views do not insert,
as in CPython. The dict never leaves the function as itself: every use of
the name other than those is refused, so Python never sees a dict where it
would see a defaultdict (`dict(d)` is a plain dict in both). The factory
must make the annotated value type (int, float, str, bool, list, set,
dict), so a read of a missing key has the same type natively.
"""
import ast

from .errors import CompileError

_DEFAULTS = {"int": "0", "float": "0.0", "str": "''", "bool": "False", "list": "[]", "set": "set()", "dict": "{}"}
_IMMUTABLE = ("int", "float", "str", "bool")
_METHODS = frozenset(("get", "items", "keys", "values", "pop", "setdefault", "clear"))
_CONSUMERS = frozenset(("len", "dict", "sorted", "list", "sum", "max", "min", "set", "any", "all", "tuple"))


def _is_defaultdict(node, names):
    if isinstance(node, ast.Name):
        return names.collections_functions.get(node.id) == "defaultdict"
    return isinstance(node, ast.Attribute) and node.attr == "defaultdict" and isinstance(node.value, ast.Name) and \
        node.value.id in names.collections_modules


def _value_kind(annotation):
    """The builtin a `dict[K, V]` annotation's V is (`int`, `list` of `list[str]`), or None."""
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) and
            annotation.value.id == "dict" and isinstance(annotation.slice, ast.Tuple) and
            len(annotation.slice.elts) == 2):
        return None
    v = annotation.slice.elts[1]
    v = v.value if isinstance(v, ast.Subscript) else v
    return v.id if isinstance(v, ast.Name) else None


def _declarations(f, names):
    """name -> (its AnnAssign, the default's source) of @p f's defaultdict locals."""
    out = {}
    for s in ast.walk(f):
        value = getattr(s, "value", None)
        if not (isinstance(value, ast.Call) and _is_defaultdict(value.func, names)):
            continue
        if not (isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)):
            raise CompileError(value, "DefaultDict", "a defaultdict natively is a local declared with its types "
                               "(`counts: Dict[str, int] = defaultdict(int)`)")
        kind = _value_kind(s.annotation)
        factory = value.args[0] if len(value.args) == 1 and not value.keywords else None
        if not (isinstance(factory, ast.Name) and factory.id in _DEFAULTS and factory.id == kind):
            raise CompileError(value, "DefaultDict", "defaultdict(F) natively needs F to be the annotated value "
                               f"type, one of {', '.join(_DEFAULTS)}")
        out[s.target.id] = (s, _DEFAULTS[factory.id], kind in _IMMUTABLE)
    return out


def _check_uses(f, name, declaration, parents):
    stores = [n for n in ast.walk(f) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)]
    params = {a.arg for a in ast.walk(f) if isinstance(a, ast.arg)}
    if len(stores) != 1 or stores[0] is not declaration.target or name in params:
        raise CompileError(declaration, "DefaultDict", f"defaultdict {name!r} is bound once natively")
    for n in ast.walk(f):
        if not (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)):
            continue
        p = parents[n]
        ok = (isinstance(p, ast.Subscript) and p.value is n) or \
            (isinstance(p, ast.Attribute) and p.attr in _METHODS and isinstance(parents.get(p), ast.Call) and
             parents[p].func is p) or \
            (isinstance(p, ast.Compare) and n in p.comparators and
             isinstance(p.ops[p.comparators.index(n)], (ast.In, ast.NotIn))) or \
            (isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id in _CONSUMERS and n in p.args) or \
            (isinstance(p, (ast.For, ast.comprehension)) and p.iter is n) or \
            (isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not)) or \
            (isinstance(p, (ast.If, ast.While, ast.IfExp)) and p.test is n)
        if not ok:
            raise CompileError(n, "DefaultDict", f"defaultdict {name!r} used as a value: native code keeps it as a "
                               "dict, which Python would see instead of the defaultdict (use dict(...) of it)")


class _Rewrite(ast.NodeTransformer):
    def __init__(self, locals_):
        self.locals = locals_  # name -> (declaration, default source, immutable values)
        self.temps = 0

    def _default(self, name):
        return ast.parse(self.locals[name][1], mode="eval").body

    def _ours(self, node):
        return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.locals

    def _read(self, sub, key):
        call = ast.Call(ast.Attribute(ast.Name(sub.value.id, ast.Load()), "setdefault", ast.Load()),
                        [key, self._default(sub.value.id)], [])
        return ast.copy_location(call, sub)

    def visit_AugAssign(self, node):
        if not self._ours(node.target):
            return self.generic_visit(node)
        name = node.target.value.id
        key = node.target.slice
        if not self.locals[name][2]:
            raise CompileError(node, "DefaultDict", f"`{name}[k] op= v` on a defaultdict of mutable values (CPython "
                               "changes the value in place)")
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
            raise CompileError(node, "DefaultDict", f"`{name}[k] op= v` with an assignment expression in it")
        value = self.visit(node.value)
        first = []
        if not isinstance(key, (ast.Name, ast.Constant)):  # the key is read twice: evaluated once, first
            self.temps += 1
            temp = f"dd_key{self.temps}"
            first = [ast.copy_location(ast.Assign([ast.Name(temp, ast.Store())], self.visit(key)), node)]
            key = node.target.slice = ast.copy_location(ast.Name(temp, ast.Load()), key)
        read = self._read(node.target, ast.copy_location(type(key)(**{f: getattr(key, f) for f in key._fields}), key))
        new = ast.Assign([node.target], ast.copy_location(ast.BinOp(read, node.op, value), node))
        return [ast.fix_missing_locations(s) for s in first + [ast.copy_location(new, node)]]

    def visit_Call(self, node):
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "dict" and len(node.args) == 1 and \
                not node.keywords and isinstance(node.args[0], ast.Name) and node.args[0].id in self.locals:
            # dict(d): a plain dict of the same items in the same order (the comprehension native code has)
            name = node.args[0].id
            copy = ast.parse(f"{{dd_key: dd_value for dd_key, dd_value in {name}.items()}}", mode="eval").body
            return ast.fix_missing_locations(ast.copy_location(copy, node))
        return node

    def visit_Subscript(self, node):
        node = self.generic_visit(node)
        if self._ours(node) and isinstance(node.ctx, ast.Load):
            return ast.fix_missing_locations(self._read(node, node.slice))
        return node


def rewrite_defaultdicts(functions, names):
    """Rewrite the defaultdict locals of each of @p functions in place."""
    for f in functions:
        locals_ = _declarations(f, names)
        if not locals_:
            continue
        parents = {child: p for p in ast.walk(f) for child in ast.iter_child_nodes(p)}
        for name, (declaration, _, _) in locals_.items():
            _check_uses(f, name, declaration, parents)
            declaration.value = ast.copy_location(ast.Dict([], []), declaration.value)
        _Rewrite(locals_).visit(f)
