"""Nested defs that are one `return` compiled as the lambda they equal.

`def key(r): return weights[r[0]] * r[1]` inside a function, or `def
bump(v): return v + step` inside a loop, makes the same function as `key =
lambda r: ...` at the same place: CPython binds the name when the `def`
runs, and the body reads its captures from the enclosing frame when it is
called (late binding), as a lambda's does. Lifting (nesting.py) passes
captures by value, which is CPython's meaning only for parameters that are
never rebound; as a lambda, the body is inlined where it is called (or
dispatched on as a function value, callables.py), so it reads the captured
locals there and then, whatever was assigned to them in between, and a
local rebound by a comprehension around the call is refused there.

Only a plain def qualifies: positional parameters without defaults, no
decorators, annotations that name types (CPython evaluates them when the
def runs; a call there could run code), a body that neither yields nor
calls the def itself (a recursive lambda stays Python; lifting handles
recursion over parameters)."""
import ast

# What a type annotation is built from; anything else (a call, ...) could run code when the def runs.
_TYPE_NODES = (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List, ast.Constant, ast.BinOp, ast.BitOr,
               ast.Load)


def defs_as_lambdas(outer, lifts):
    """Replace, in place, each nested def of @p outer that is one return statement by the
    assignment of the lambda it equals, unless @p lifts(def) says lifting keeps its meaning
    (for a def at the top of the body). Defs inside other nested scopes are left alone."""
    def block(stmts, top):
        out = []
        for s in stmts:
            if isinstance(s, ast.FunctionDef):
                lam = _as_lambda(s)
                out.append(s if lam is None or (top and lifts(s)) else lam)
                continue
            if not isinstance(s, ast.ClassDef):
                for field, value in ast.iter_fields(s):
                    if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                        setattr(s, field, block(value, False))
                    elif isinstance(value, list):
                        for h in value:
                            if isinstance(h, (ast.ExceptHandler, ast.match_case)):
                                h.body = block(h.body, False)
            out.append(s)
        return out
    outer.body = block(outer.body, True)


def _as_lambda(d):
    """`name = lambda params: expr` for a def that qualifies (see the module docstring), else None."""
    a = d.args
    body = d.body[1:] if _is_docstring(d.body[0]) else d.body
    if d.decorator_list or a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or \
            len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    annotations = [p.annotation for p in a.args if p.annotation is not None] + [d.returns] * (d.returns is not None)
    if any(not isinstance(n, _TYPE_NODES) for t in annotations for n in ast.walk(t)):
        return None
    expr = body[0].value
    for n in ast.walk(expr):
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) or \
                (isinstance(n, ast.Name) and n.id == d.name and isinstance(n.ctx, ast.Load)):
            return None
    lam = ast.Lambda(ast.arguments([], [ast.arg(p.arg) for p in a.args], None, [], [], None, []), expr)
    out = ast.Assign([ast.Name(d.name, ast.Store())], lam)
    return ast.fix_missing_locations(ast.copy_location(out, d))


def _is_docstring(s):
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
