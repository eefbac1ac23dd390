"""The type of an unannotated local a lifted nested def captures, read from
the local's assignments (nesting.py passes the capture as a parameter, and
a parameter needs an annotation).

`offset = len(xs)`, `total = 0; total += x`, `best = lo` with `lo: int`, `for
i in range(n)`, `for x in xs` with `xs: List[int]`: each binding of the local is read, and only when every one
says the same scalar type is that the capture's annotation. This is no
type check of its own: the function is lowered as always, and a value of
another type reaching the lifted parameter fails to compile there, so a
wrong guess refuses, it never converts."""
import ast

SCALARS = ("int", "float", "str", "bool")
_SAME_TYPE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor,
                  ast.LShift, ast.RShift)
_ITERABLES = ("List", "list", "Set", "set", "FrozenSet", "frozenset", "Sequence", "Iterable")
_RESULTS = {"len": "int", "ord": "int", "abs": None, "int": "int", "float": "float", "str": "str", "bool": "bool",
            "sum": None, "min": None, "max": None, "round": None, "pow": None, "bin": "str", "oct": "str",
            "hex": "str"}


def inferred_types(outer, names, typed):
    """{name: annotation} for each of @p names (locals of @p outer) whose every binding gives it
    the same scalar type; @p typed: annotations already known (parameters, declared locals)."""
    known = {n: t.id for n, t in typed.items() if isinstance(t, ast.Name) and t.id in SCALARS}
    elements = {n: _element(t) for n, t in typed.items() if _element(t)}
    bindings = _bindings(outer, elements)
    locals_ = set(bindings) - set(typed)  # `a = 0; b = a`: a name's type may come from another local's
    for _ in range(len(locals_) + 1):
        for name in locals_ - set(known):
            # The one type some binding gives it, if every binding gives that type once the name has it
            # (`s = s + w[:1]`, `total += x`: by induction over the bindings as they run).
            kinds = {_kind(b, known) for b in bindings[name] if not _is_aug(b)} - {None}
            kind = kinds.pop() if len(kinds) == 1 else None
            assumed = {**known, name: kind}
            if kind is not None and all((_expr_kind(b[1], assumed) if _is_aug(b) else _kind(b, assumed)) == kind
                                        for b in bindings[name]):
                known[name] = kind
    return {n: ast.Name(known[n], ast.Load()) for n in names if n in known and n in locals_}


def _element(annotation):
    """The scalar element type of a `List[int]`, `list[str]`, `Set[int]`... annotation, or None."""
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) and \
            annotation.value.id in _ITERABLES and isinstance(annotation.slice, ast.Name) and \
            annotation.slice.id in SCALARS:
        return annotation.slice.id
    return None


def _bindings(outer, elements):
    """{name: [what binds it]} for every name @p outer binds: an Assign's value, ("aug", value,
    target), ("elem", type) for a loop over range() or over a name of @p elements ({name: its
    element type}); anything else binding it (a tuple target, with, except, del, a comprehension)
    is None."""
    out = {}
    names = _AnyName()
    for n in _own_nodes(outer):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name) and sub.id in names:
                        out.setdefault(sub.id, []).append(n.value if sub is t else None)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in names:
            out.setdefault(n.target.id, []).append(("aug", n.value) if isinstance(n.op, _SAME_TYPE_OPS) else None)
        elif isinstance(n, (ast.For, ast.comprehension)):
            for sub in ast.walk(n.target):
                if isinstance(sub, ast.Name) and sub.id in names:
                    ranged = sub is n.target and isinstance(n.iter, ast.Call) and \
                        isinstance(n.iter.func, ast.Name) and n.iter.func.id == "range"
                    element = "int" if ranged else elements.get(getattr(n.iter, "id", None)) \
                        if sub is n.target and isinstance(n, ast.For) else None
                    out.setdefault(sub.id, []).append(("elem", element) if element else None)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id in names:
            out.setdefault(n.target.id, []).append(None)  # declared: typed already, not inferred here
        elif isinstance(n, (ast.NamedExpr, ast.withitem, ast.ExceptHandler, ast.Delete)):
            for sub in ast.walk(n):
                if isinstance(sub, ast.Name) and sub.id in names and not isinstance(sub.ctx, ast.Load):
                    out.setdefault(sub.id, []).append(None)
    return out


class _AnyName:
    """Every name (the bindings of all of a function's locals are read)."""

    def __contains__(self, name):
        return True


def _own_nodes(outer):
    """The nodes of @p outer's body, not those of the functions, lambdas and classes inside it."""
    todo = list(outer.body)
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))


def _kind(binding, known):
    if binding is None:
        return None
    if isinstance(binding, tuple):
        return binding[1]  # ("elem", type)
    return _expr_kind(binding, known)


def _is_aug(binding):
    return isinstance(binding, tuple) and binding[0] == "aug"


def _expr_kind(e, known):
    """The scalar type @p e has whatever its operands hold, or None."""
    if isinstance(e, ast.Constant) and type(e.value) in (int, float, str, bool):
        return type(e.value).__name__
    if isinstance(e, ast.Name):
        return known.get(e.id)
    if isinstance(e, ast.Compare):  # of scalars: bool (a boxed operand's __lt__ could return anything)
        kinds = {_expr_kind(x, known) for x in [e.left] + e.comparators}
        return "bool" if None not in kinds else None
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return "bool"
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        kind = _expr_kind(e.operand, known)
        return kind if kind in ("int", "float") else None
    if isinstance(e, ast.BinOp) and not isinstance(e.op, (ast.Div, ast.Pow)):
        left, right = _expr_kind(e.left, known), _expr_kind(e.right, known)
        if left == right and left in ("int", "float"):
            return left
        if left == right == "str" and isinstance(e.op, ast.Add):
            return "str"
        return None
    if isinstance(e, ast.Subscript) and _expr_kind(e.value, known) == "str":  # s[i], s[a:b]
        return "str"
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and not e.keywords and e.func.id in _RESULTS and \
            e.func.id not in known:
        return _RESULTS[e.func.id]
    return None
