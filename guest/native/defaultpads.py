"""Filler for the default slots a function value does not have.

Where a function stores a lambda with defaults, each of its function values
is a tuple of its tag and the defaults it was made with (callables.py), so
all of them must have the same slots: a lambda with fewer defaults than
another (`[lambda v: v >= lo, lambda v, m=2: v % m == 0]`) fills the rest
with a constant of the type those slots hold. The filler is never read (a
call reads only the defaults of the lambda its tag names) and evaluating a
constant does nothing, so it changes no meaning. Its type is known here
when the slot's default is a constant, or a name declared with a scalar
annotation (a parameter, `k: int = ...`) or a loop over range()."""
import ast

_ZERO = {"int": 0, "float": 0.0, "str": "", "bool": False}


def filler_like(default, fdef):
    """A constant of the type of @p default (a default of a lambda in @p fdef), or None if
    its type is not known before lowering."""
    if isinstance(default, ast.Constant) and type(default.value) in (int, float, str, bool):
        return ast.Constant(default.value)
    if not isinstance(default, ast.Name):
        return None
    kinds = set()
    a = fdef.args
    for p in a.posonlyargs + a.args + a.kwonlyargs:
        if p.arg == default.id:
            kinds.add(_scalar(p.annotation))
    for n in ast.walk(fdef):
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == default.id:
            kinds.add(_scalar(n.annotation))
        elif isinstance(n, (ast.For, ast.comprehension)) and \
                any(isinstance(t, ast.Name) and t.id == default.id for t in ast.walk(n.target)):
            # A comprehension's variable is one of its own, possibly of another type: range says int.
            ranged = isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call) and \
                isinstance(n.iter.func, ast.Name) and n.iter.func.id == "range"
            kinds.add("int" if ranged else None)
    if len(kinds) != 1 or None in kinds:
        return None
    return ast.Constant(_ZERO[kinds.pop()])


def _scalar(annotation):
    return annotation.id if isinstance(annotation, ast.Name) and annotation.id in _ZERO else None
