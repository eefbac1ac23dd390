"""Nested functions lifted to the module, their captures passed by value.

A `def` at the top level of a function's body becomes a module function of
its own (`outer__in__helper`), and each call of it in the enclosing
function gains the names it captures as trailing arguments. A closure reads
its cells when it runs, and while it runs the enclosing frame is suspended
(a nested def may not declare nonlocal), so the values passed at each call
are what it would read: a capture may be a parameter, even one rebound
before or between calls, or a local declared with an annotation (which
gives the lifted parameter its type) or whose assignments all give it one
scalar type (localtypes.py). A capture that a comprehension or
lambda binds around a call (the argument would be theirs), or that is
deleted or an except name (a call could find it unbound), is refused. The
helper is only ever called, by name, after its `def`, with positional
arguments (a sibling calls only the ones defined before it): called early
or given defaults, it is refused. A def that is one `return` and captures
a local lifting cannot pass, or sits in a loop or branch, is not lifted:
it becomes the lambda it equals (deflambdas.py), which reads its captures
when it is called. Named as a value, after its def, it becomes `lambda
p..: outer__in__helper(p.., captures..)`, a function value callables.py
compiles: called in the enclosing frame, or by a callee while that frame
is suspended, it is passed its captures when it runs; returned by a
factory (factories.py), when nothing can rebind them any more."""
import ast
import copy

from .deflambdas import defs_as_lambdas
from .errors import CompileError
from .localtypes import inferred_types

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
    params = {a.arg: a for a in parameters(outer)}
    rebound = _rebound(outer, nested, params)
    typed, scoped = _typed_captures(outer, nested, params, rebound), _scoped_names(outer, nested)
    # One capturing a local that lifting cannot pass (or in a loop or branch) reads it when called, as a lambda.
    defs_as_lambdas(outer, lambda d: all(c in typed and c not in scoped for c in _free(d) & rebound))
    nested = [s for s in outer.body if isinstance(s, ast.FunctionDef)]
    if not nested:
        return []
    rebound = _rebound(outer, nested, params)
    typed, scoped = _typed_captures(outer, nested, params, rebound), _scoped_names(outer, nested)
    # A def lifting must pass a local of: its type from the local's assignments where they all agree.
    wanted = sorted(set().union(*(_free(d) for d in nested)) & rebound - set(typed))
    typed.update(inferred_types(outer, wanted, typed))
    helpers = {d.name: d for d in nested}
    if len(helpers) != len(nested):
        raise CompileError(nested[-1], "NestedFunction", f"{nested[-1].name}() is defined twice")
    lifted, captures = [], {}
    for d in nested:
        _check_shape(d, outer)
        if d.name in params or d.name in rebound:
            raise CompileError(d, "NestedFunction", f"{d.name!r} is bound again in {outer.name}()")
        free = _free(d)
        for name in sorted(free & (set(helpers) - {d.name} - set(captures))):
            raise CompileError(d, "NestedFunction", f"{d.name}() calls {name}(), defined after it")
        caught = sorted(free & (set(params) | rebound))
        for name in caught:
            if name not in typed:
                raise CompileError(d, "NestedCapture", f"{d.name}() captures {name!r}, a local of {outer.name}() "
                                   f"without an annotation: its type is not known where {d.name}() is compiled "
                                   f"(declare it, `{name}: T = ...`, to run natively)")
            if name in scoped:
                raise CompileError(d, "NestedCapture", f"{d.name}() captures {name!r}, which a comprehension, "
                                   f"lambda, except clause or del of {outer.name}() binds too")
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
        f.args.args = f.args.args + [ast.arg(c, copy.deepcopy(typed[c])) for c in caught]
        lifted.append(f)
    outer.body = [s for s in outer.body if not isinstance(s, ast.FunctionDef)]
    for d in nested:
        _rewrite_calls(outer, d, captures[d.name], outer.name, after=d.lineno)
    for f in lifted:
        for d in nested:
            _rewrite_calls(f, d, captures[d.name], outer.name, after=None)
    return lifted


def _typed_captures(outer, nested, params, rebound):
    """The names a lifted def may capture, with their types: the parameters (each call passes
    the value they hold then, which is what CPython's closure reads while it runs: the frame
    that could rebind them is suspended), and the locals declared with an annotation."""
    typed = {p: a.annotation for p, a in params.items()}
    todo = [s for s in outer.body if not any(s is d for d in nested)]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id in rebound and \
                not any(getattr(x, "id", getattr(x, "attr", None)) == "Callable" for x in ast.walk(n.annotation)):
            typed.setdefault(n.target.id, n.annotation)  # (a local holding functions is no value to pass)
        if not isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(n))
    return typed


def _scoped_names(outer, nested):
    """Names @p outer binds in a scope of their own around a call (a comprehension's or a
    lambda's: a capture passed there would be theirs), or binds so that a call could find
    them unbound (del, except ... as)."""
    out = set()
    todo = [s for s in outer.body if not any(s is d for d in nested)]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Lambda):
            out |= {p.arg for p in parameters(n)}
        elif isinstance(n, ast.comprehension):
            out |= {t.id for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del):
            out.add(n.id)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.NamedExpr):
            out |= {t.id for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        todo.extend(ast.iter_child_nodes(n))
    return out


def _rebound(outer, nested, params):
    """The names @p outer binds besides its parameters, and the parameters it rebinds."""
    return _bound_in(outer, nested) - set(params) | {p for p in params if _stores(outer, p, nested)}


def _free(d):
    """The names nested def @p d reads from around it."""
    return {n.id for n in ast.walk(d) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - \
        _bound_in(d) - {d.name}


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
            lam = as_lambda(lifted, len(d.args.args), caught)
            if hasattr(d, "py_code"):  # the code object CPython makes for the def (crossing.py)
                lam.py_code = d.py_code
            return ast.copy_location(lam, n)
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
