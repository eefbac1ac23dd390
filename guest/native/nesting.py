"""Nested functions lifted to the module, their captures passed by value.

A `def` at the top level of a function's body becomes a module function of
its own (`outer__in__helper`), and each call of it in the enclosing
function gains the names it captures as trailing arguments. That is
CPython's meaning only when a captured name has one value for the whole
call: so a capture must be a parameter of the enclosing function that is
never rebound (a closure reads its cell when it runs, not when it is
made). The helper is only ever called, by name, after its `def`, with
positional arguments (a sibling calls only the ones defined before it):
called early or given defaults, it is refused. Named as a value, after its
def, it becomes `lambda p..: outer__in__helper(p.., captures..)`, a
function value callables.py compiles (its captures never change, so
passing them when it runs is passing them when it is made)."""
import ast
import copy

from .errors import CompileError

_LIFTED = "__in__"


def as_lambda(name, arity, extra=()):
    """`lambda p0, ..: name(p0, .., *extra)`: a named function as a lambda (the same calls, the
    same errors), for the places a function value is compiled (callables.py)."""
    params = [f"__fv_p{i}" for i in range(arity)]
    args = [ast.Name(p, ast.Load()) for p in params] + [ast.Name(e, ast.Load()) for e in extra]
    lam = ast.Lambda(ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                     ast.Call(ast.Name(name, ast.Load()), args, []))
    return ast.fix_missing_locations(lam)


def lifted_name(outer, helper):
    return f"{outer}{_LIFTED}{helper}"


def is_lifted(name):
    """Whether @p name is a lifted nested function (never callable from Python)."""
    return _LIFTED in name


def lift_nested(tree, refused=None):
    """Lift the nested defs of every top-level function of @p tree into tree.body, in place,
    each right before the function that held it. A function whose nested defs cannot be
    lifted raises CompileError, or with @p refused (a dict) is left as it is and its name
    mapped to the reason."""
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    body = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            original = copy.deepcopy(node) if refused is not None else None
            try:
                body.extend(_lift_from(node, taken))
            except CompileError as e:
                if refused is None:
                    raise
                refused[node.name] = str(e)
                node = original
        body.append(node)
    tree.body = body


def parameters(fdef):
    """Every parameter of @p fdef in order: positional-only, positional, keyword-only."""
    a = fdef.args
    return a.posonlyargs + a.args + a.kwonlyargs


def called_names(fdef):
    """The names @p fdef calls (`name(...)`)."""
    return {n.func.id for n in ast.walk(fdef) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _bound_in(fdef, skip=()):
    """Names @p fdef binds (parameters, stores, except names), not counting the subtrees in @p skip."""
    names = {a.arg for a in parameters(fdef)}
    todo = list(fdef.body)
    while todo:
        n = todo.pop()
        if any(n is s for s in skip):
            continue
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
        todo.extend(ast.iter_child_nodes(n))
    return names


def _lift_from(outer, taken):
    nested = [s for s in outer.body if isinstance(s, ast.FunctionDef)]
    if not nested:
        return []
    params = {a.arg: a for a in parameters(outer)}
    rebound = _bound_in(outer, nested) - set(params) | \
        {a.arg for a in parameters(outer) if _stores(outer, a.arg, nested)}
    helpers = {d.name: d for d in nested}
    if len(helpers) != len(nested):
        raise CompileError(nested[-1], "NestedFunction", f"{nested[-1].name}() is defined twice")
    lifted, captures = [], {}
    for d in nested:
        _check_shape(d, outer)
        if d.name in params or d.name in rebound:
            raise CompileError(d, "NestedFunction", f"{d.name!r} is bound again in {outer.name}()")
        free = {n.id for n in ast.walk(d) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - \
            _bound_in(d) - {d.name}
        for name in sorted(free & (set(helpers) - {d.name} - set(captures))):
            raise CompileError(d, "NestedFunction", f"{d.name}() calls {name}(), defined after it")
        caught = sorted(free & (set(params) | rebound))
        for name in caught:
            if name not in params or name in rebound:
                raise CompileError(d, "NestedCapture", f"{d.name}() captures {name!r}, which {outer.name}() "
                                   "rebinds (a closure sees the value when it runs)")
        # An earlier sibling it calls needs its own captures passed on, which d must not shadow.
        own = _bound_in(d)
        for sibling in sorted(free & set(captures)):
            for name in captures[sibling]:
                if name in own:
                    raise CompileError(d, "NestedCapture", f"{d.name}() binds {name!r}, which {sibling}() "
                                       f"captures from {outer.name}()")
            caught = sorted(set(caught) | set(captures[sibling]))
        captures[d.name] = caught
        new_name = lifted_name(outer.name, d.name)
        if new_name in taken:
            raise CompileError(d, "NestedFunction", f"the name {new_name!r} is taken")
        taken.add(new_name)
        f = copy.deepcopy(d)
        f.name = new_name
        f.args.args = f.args.args + [ast.arg(c, copy.deepcopy(params[c].annotation)) for c in caught]
        lifted.append(f)
    outer.body = [s for s in outer.body if not isinstance(s, ast.FunctionDef)]
    for d in nested:
        _rewrite_calls(outer, d, captures[d.name], outer.name, after=d.lineno)
    for f in lifted:
        for d in nested:
            _rewrite_calls(f, d, captures[d.name], outer.name, after=None)
    return lifted


def _stores(fdef, name, skip):
    todo = list(fdef.body)
    while todo:
        n = todo.pop()
        if any(n is s for s in skip):
            continue
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
            return True
        todo.extend(ast.iter_child_nodes(n))
    return False


def _check_shape(d, outer):
    a = d.args
    if d.decorator_list or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
        raise CompileError(d, "NestedFunction", f"nested {d.name}(): only plain positional parameters")
    for n in ast.walk(d):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            raise CompileError(n, "NestedFunction", f"nested {d.name}() declares {type(n).__name__.lower()}")
        if isinstance(n, (ast.FunctionDef, ast.Lambda, ast.ClassDef)) and n is not d:
            raise CompileError(n, "NestedFunction", f"a function nested in {outer.name}.{d.name}()")


def _rewrite_calls(tree, d, caught, outer_name, after):
    """Calls of @p d by name in @p tree go to its lifted function with @p caught appended;
    any other use of the name is refused, as is a call before the def (line @p after)."""
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    lifted = lifted_name(outer_name, d.name)

    class Values(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id != d.name or id(n) in calls or not isinstance(n.ctx, ast.Load):
                return n
            if after is not None and n.lineno < after:
                raise CompileError(n, "NestedFunction", f"{d.name} is used before its def")
            return ast.copy_location(as_lambda(lifted, len(d.args.args), caught), n)
    Values().visit(tree)
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == d.name:
            if n.keywords or any(isinstance(a, ast.Starred) for a in n.args):
                raise CompileError(n, "NestedFunction", f"{d.name}() is called with positional arguments only")
            if after is not None and n.lineno < after:
                raise CompileError(n, "NestedFunction", f"{d.name}() is called before its def")
            n.func.id = lifted_name(outer_name, d.name)
            n.args = n.args + [ast.copy_location(ast.Name(c, ast.Load()), n) for c in caught]
        elif isinstance(n, ast.Name) and n.id == d.name and id(n) not in calls:
            raise CompileError(n, "NestedFunction", f"{d.name} is bound again")
