"""collections.defaultdict and Counter locals, rewritten into the plain dicts
native code has.

    counts: Dict[str, int] = defaultdict(int)
    for w in words:
        counts[w] += 1            # counts[w] = counts.setdefault(w, 0) + 1
    groups: Dict[int, List[str]] = defaultdict(list)
    groups[len(w)].append(w)      # groups.setdefault(len(w), []).append(w)
    seen = Counter(words)         # seen = {}; for x in words: seen[x] = seen.get(x, 0) + 1
    seen["the"]                   # seen.get("the", 0)
    seen.most_common(3)           # sorted(seen.items(), key=..., reverse=True)[:max(3, 0)]

A defaultdict read `d[k]` inserts the factory's value as __missing__ does
(setdefault: a fresh value, inserted only when k is missing, at the same
place in the order); a Counter read answers 0 and inserts nothing, as its
__missing__ does; Counter(iterable) counts as Counter's own
`_count_elements` loop does (`mapping[elem] = mapping.get(elem, 0) + 1`),
and most_common is the stable sort by count, descending, that CPython's
(sorted, or heapq.nlargest, documented equal to it) gives. `.get`, `in`,
len, iteration and the views are the dict's, as in CPython. The dict never
leaves the function as itself: every use of the name other than those is
refused, so Python never sees a dict where it would see a defaultdict or a
Counter (`dict(d)` is a plain dict in both). A defaultdict's factory must
make the annotated value type, so a read of a missing key has the same type
natively; Counter counts only what is surely iterated as CPython iterates
it (a list, str, tuple or set parameter, a comprehension), since
Counter(mapping) copies the mapping's counts instead.
"""
import ast

from .errors import CompileError

_DEFAULTS = {"int": "0", "float": "0.0", "str": "''", "bool": "False", "list": "[]", "set": "set()", "dict": "{}"}
_IMMUTABLE = ("int", "float", "str", "bool")
_METHODS = frozenset(("get", "items", "keys", "values", "pop", "setdefault", "clear"))
_CONSUMERS = frozenset(("len", "dict", "sorted", "list", "sum", "max", "min", "set", "any", "all", "tuple"))
_ITERATED = ("list", "str", "tuple", "set")  # parameter types Counter(x) counts element by element


class _Local:
    """A defaultdict or Counter local: its declaration, what a read of a missing key gives
    (source text), whether its values are immutable, and the iterable a Counter counts."""

    def __init__(self, declaration, kind, default, immutable, counted=None):
        self.declaration, self.kind, self.default, self.immutable = declaration, kind, default, immutable
        self.counted = counted


def _collections_call(node, names, function):
    """Is @p node a call of collections' @p function (`defaultdict(...)`, `collections.Counter(...)`)?"""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Name):
        return names.collections_functions.get(f.id) == function
    return isinstance(f, ast.Attribute) and f.attr == function and isinstance(f.value, ast.Name) and \
        f.value.id in names.collections_modules


def _value_kind(annotation):
    """The builtin a `dict[K, V]` annotation's V is (`int`, `list` of `list[str]`), or None."""
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) and
            annotation.value.id == "dict" and isinstance(annotation.slice, ast.Tuple) and
            len(annotation.slice.elts) == 2):
        return None
    v = annotation.slice.elts[1]
    v = v.value if isinstance(v, ast.Subscript) else v
    return v.id if isinstance(v, ast.Name) else None


def _defaultdict(s, value):
    if not (isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)):
        raise CompileError(value, "DefaultDict", "a defaultdict natively is a local declared with its types "
                           "(`counts: Dict[str, int] = defaultdict(int)`)")
    kind = _value_kind(s.annotation)
    factory = value.args[0] if len(value.args) == 1 and not value.keywords else None
    if not (isinstance(factory, ast.Name) and factory.id in _DEFAULTS and factory.id == kind):
        raise CompileError(value, "DefaultDict", "defaultdict(F) natively needs F to be the annotated value "
                           f"type, one of {', '.join(_DEFAULTS)}")
    return _Local(s, "defaultdict", _DEFAULTS[factory.id], kind in _IMMUTABLE)


def _counter(s, value, f):
    target = s.target if isinstance(s, ast.AnnAssign) else s.targets[0] if isinstance(s, ast.Assign) and \
        len(s.targets) == 1 else None
    if not isinstance(target, ast.Name) or isinstance(s, ast.AnnAssign) and _value_kind(s.annotation) != "int":
        raise CompileError(value, "Counter", "a Counter natively is a local (`seen = Counter(words)`, or "
                           "annotated `Dict[K, int]`)")
    if value.keywords or len(value.args) > 1:
        raise CompileError(value, "Counter", "Counter() of one iterable (no keywords) natively")
    counted = value.args[0] if value.args else None
    params = {a.arg: a.annotation for a in f.args.posonlyargs + f.args.args + f.args.kwonlyargs}
    if counted is not None and any(isinstance(n, ast.Name) and n.id == target.id for n in ast.walk(counted)):
        raise CompileError(counted, "Counter", f"Counter() of an iterable naming {target.id!r} itself")
    if counted is not None and not isinstance(counted, (ast.GeneratorExp, ast.ListComp)):
        ann = params.get(counted.id) if isinstance(counted, ast.Name) else None
        ann = ann.value if isinstance(ann, ast.Subscript) else ann
        if not (isinstance(ann, ast.Name) and ann.id in _ITERATED):
            raise CompileError(counted, "Counter", "Counter(x) natively counts a list, str, tuple or set parameter "
                               "or a comprehension (Counter of a mapping copies its counts)")
    return _Local(s, "counter", "0", True, counted)


def _declarations(f, names):
    """name -> _Local of @p f's defaultdict and Counter locals."""
    out = {}
    for s in ast.walk(f):
        value = getattr(s, "value", None)
        if _collections_call(value, names, "defaultdict"):
            local = _defaultdict(s, value)
        elif _collections_call(value, names, "Counter"):
            local = _counter(s, value, f)
        else:
            continue
        out[(s.target if isinstance(s, ast.AnnAssign) else s.targets[0]).id] = local
    return out


def _check_uses(f, name, local, parents):
    target = local.declaration.target if isinstance(local.declaration, ast.AnnAssign) else \
        local.declaration.targets[0]
    stores = [n for n in ast.walk(f) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)]
    params = {a.arg for a in ast.walk(f) if isinstance(a, ast.arg)}
    if len(stores) != 1 or stores[0] is not target or name in params:
        raise CompileError(local.declaration, "DefaultDict", f"{local.kind} {name!r} is bound once natively")
    methods = _METHODS | {"most_common"} if local.kind == "counter" else _METHODS
    for n in ast.walk(f):
        if not (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)):
            continue
        p = parents[n]
        if local.kind == "counter" and isinstance(p, ast.Subscript) and isinstance(p.ctx, ast.Del):
            raise CompileError(p, "Counter", f"del {name}[k]: a Counter ignores a missing key, a dict raises")
        ok = (isinstance(p, ast.Subscript) and p.value is n) or \
            (isinstance(p, ast.Attribute) and p.attr in methods and isinstance(parents.get(p), ast.Call) and
             parents[p].func is p) or \
            (isinstance(p, ast.Compare) and n in p.comparators and
             isinstance(p.ops[p.comparators.index(n)], (ast.In, ast.NotIn))) or \
            (isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id in _CONSUMERS and n in p.args) or \
            (isinstance(p, (ast.For, ast.comprehension)) and p.iter is n) or \
            (isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not)) or \
            (isinstance(p, (ast.If, ast.While, ast.IfExp)) and p.test is n)
        if not ok:
            raise CompileError(n, "DefaultDict", f"{local.kind} {name!r} used as a value: native code keeps it as a "
                               f"dict, which Python would see instead of the {local.kind} (use dict(...) of it)")


class _Rewrite(ast.NodeTransformer):
    def __init__(self, locals_):
        self.locals = locals_  # name -> _Local
        self.temps = 0

    def _ours(self, node):
        return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.locals

    def _read(self, name, key, where):
        """d.setdefault(key, default) of a defaultdict, d.get(key, 0) of a Counter."""
        local = self.locals[name]
        method = "setdefault" if local.kind == "defaultdict" else "get"
        call = ast.Call(ast.Attribute(ast.Name(name, ast.Load()), method, ast.Load()),
                        [key, ast.parse(local.default, mode="eval").body], [])
        return ast.fix_missing_locations(ast.copy_location(call, where))

    def _declared(self, node):
        """The declaration, its value now an empty dict; a Counter's counting loop after it."""
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
        local = self.locals.get(getattr(target, "id", None))
        if local is None or local.declaration is not node:
            return self.generic_visit(node)
        node.value = ast.copy_location(ast.Dict([], []), node.value)
        if local.counted is None:
            return node
        item = f"dd_{target.id}_item"
        counted = self.visit(local.counted)
        if isinstance(counted, ast.GeneratorExp):  # its items made first: nothing they compute can see the counts
            counted = ast.copy_location(ast.ListComp(counted.elt, counted.generators), counted)
        loop = ast.For(ast.Name(item, ast.Store()), counted, [ast.Assign(
            [ast.Subscript(ast.Name(target.id, ast.Load()), ast.Name(item, ast.Load()), ast.Store())],
            ast.BinOp(self._read(target.id, ast.Name(item, ast.Load()), node), ast.Add(), ast.Constant(1)))], [])
        return [node, ast.fix_missing_locations(ast.copy_location(loop, node))]

    visit_Assign = visit_AnnAssign = _declared

    def visit_AugAssign(self, node):
        if not self._ours(node.target):
            return self.generic_visit(node)
        name = node.target.value.id
        key = node.target.slice
        if not self.locals[name].immutable:
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
        read = self._read(name, ast.copy_location(type(key)(**{f: getattr(key, f) for f in key._fields}), key), key)
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
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "most_common" and isinstance(f.value, ast.Name) and \
                f.value.id in self.locals:
            return self._most_common(node, f.value.id)
        return node

    def _most_common(self, node, name):
        n = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if node.keywords or len(node.args) > 1 or \
                n is not None and not (isinstance(n, ast.Name) or isinstance(n, ast.Constant) and type(n.value) is int):
            raise CompileError(node, "Counter", "most_common(n) natively takes n as a name or an int constant")
        text = f"sorted({name}.items(), key=lambda dd_kv: dd_kv[1], reverse=True)"
        if n is not None:
            text += f"[:max({ast.unparse(n)}, 0)]"
        return ast.fix_missing_locations(ast.copy_location(ast.parse(text, mode="eval").body, node))

    def visit_Subscript(self, node):
        node = self.generic_visit(node)
        if self._ours(node) and isinstance(node.ctx, ast.Load):
            return self._read(node.value.id, node.slice, node)
        return node


def rewrite_defaultdicts(functions, names):
    """Rewrite the defaultdict and Counter locals of each of @p functions in place."""
    for f in functions:
        locals_ = _declarations(f, names)
        if not locals_:
            continue
        parents = {child: p for p in ast.walk(f) for child in ast.iter_child_nodes(p)}
        for name, local in locals_.items():
            _check_uses(f, name, local, parents)
        _Rewrite(locals_).visit(f)
