"""Closures a native factory returns to Python: `make_adder(5)` called from
Python gives an object Python calls like the closure CPython would have
made (native/loader.py, native_factory, builds it).

The factory's state function (factories.py) is exported: it returns which
closure it made and the captures, `(i, n)`. Each closure i gets an exported
function of its own, its body taking its parameters and then the captures
it reads, typed by the factory's annotation: `Callable[[int], int]` gives
the parameters' and the result's types, the captures' annotations theirs.
Reading the captures from the state is CPython's meaning: once the factory
has returned nothing rebinds them (factories.py).

A closure crosses only when a copy of its captures is the closure's own
value: scalars, str and tuples of them (and Optional of those). A list, a
dict or a set captured by CPython's closure is the caller's object, which
the caller may change afterwards and the closure then reads; a native one
would hold a copy. Such a factory, one whose annotation does not spell its
closures' parameter types (`Callable[..., int]`), or one whose closure
reads a name of the factory that is no capture (a sibling nested def) stays
Python for Python callers, saying why; native callers still run it.

Which code object CPython would have made for closure i is found again by
its name and its place among the factory's nested code objects of that
name, in the order CPython's compiler makes them (`mark_code_objects`,
before lifting moves nested defs away): the loader builds the very function
CPython would have returned (same `__name__`, `__qualname__`, parameters,
cells holding the captures) for the calls native code does not bind."""
import ast
import copy

from .callables import late_reads
from .loader import body_name
from .errors import CompileError
from .lambdas import binding_counts
from .localtypes import SCALARS
from .nesting import parameters

_TUPLES = {"tuple", "Tuple"}
_OPTIONALS = {"Optional"}
_SCOPES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class NotCrossing(Exception):
    """Why a factory's closures cannot be given to Python natively."""


def mark_code_objects(tree):
    """Give every lambda and nested def directly in a top-level function's scope of @p tree
    its code object's identity, `py_code = (name, ordinal, free names)`: the ordinal counts
    the scope's code objects of that name in the order CPython's compiler makes them."""
    for fdef in tree.body:
        if isinstance(fdef, ast.FunctionDef):
            seen = {}
            bound = set(binding_counts(fdef)) | {n.name for n in ast.walk(fdef) if isinstance(n, ast.FunctionDef)}
            for node in _codegen_order(fdef.body):
                name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
                node.py_code = (name, seen.get(name, 0), _free(node) & bound)
                seen[name] = seen.get(name, 0) + 1


def _codegen_order(nodes):
    """The lambdas and defs among @p nodes and what they hold (not inside other scopes), in
    the order CPython's compiler adds their code objects: a def's or lambda's defaults,
    decorators and annotations before itself, an assignment's value before its targets."""
    for node in nodes:
        if isinstance(node, ast.Lambda):
            yield from _codegen_order(node.args.defaults + [d for d in node.args.kw_defaults if d])
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            annotations = [p.annotation for p in parameters(node) + [a.vararg, a.kwarg] if p and p.annotation]
            yield from _codegen_order(node.decorator_list + a.defaults + [d for d in a.kw_defaults if d] +
                                      annotations + [node.returns] * (node.returns is not None))
            yield node
        elif isinstance(node, ast.ClassDef):
            yield from _codegen_order(node.decorator_list + node.bases + [k.value for k in node.keywords])
        elif isinstance(node, _COMPREHENSIONS):
            yield from _codegen_order([node.generators[0].iter])  # the rest is the comprehension's scope
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            yield from _codegen_order([node.value] if node.value else [])
            yield from _codegen_order(node.targets if isinstance(node, ast.Assign) else [node.target])
        elif isinstance(node, ast.Dict):
            yield from _codegen_order([x for k, v in zip(node.keys, node.values) for x in (k, v) if x])
        elif isinstance(node, ast.AST):
            yield from _codegen_order(list(ast.iter_child_nodes(node)))


def _free(node):
    """Names @p node (a lambda or def) reads that it does not bind itself (a recursive def's own
    name included: its code reads it from the enclosing scope)."""
    if isinstance(node, ast.Lambda):
        try:
            return late_reads(node)
        except CompileError:  # a lambda no pass compiles (keyword-only parameters, :=): every name it reads
            return {n.id for n in ast.walk(node.body) if isinstance(n, ast.Name)}
    own = {p.arg for p in parameters(node)}
    own |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    own |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n is not node}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - own


def crossing_bodies(factory, made, captures, annotations, returns):
    """The exported body function of each closure @p made (lambdas, reading @p captures by
    name) of @p factory, or NotCrossing saying why Python's callers keep CPython's version.
    @p annotations: the factory's parameter annotations; @p returns: its return annotation."""
    types, result = _callable_types(factory, returns)
    for c in captures:
        if not _immutable(annotations[c]):
            raise NotCrossing(f"its closure captures {c!r}, a {ast.unparse(annotations[c])}: CPython's closure "
                              "holds the caller's own object, which the caller may change afterwards; a native "
                              "one would hold a copy")
    out = []
    for i, lam in enumerate(made):
        code = getattr(lam, "py_code", None)
        if code is None:
            raise NotCrossing("its closure is made where no code object of the factory's own is")
        name, ordinal, free = code
        strange = sorted(set(free) - set(captures) - {name})
        if strange:
            raise NotCrossing(f"its closure {name} reads {strange[0]!r}, a name of {factory}() that is no "
                              "captured parameter")
        params = [p.arg for p in lam.args.args]
        if len(params) != len(types):
            raise NotCrossing(f"its closure takes {len(params)} argument(s) where its annotation says "
                              f"{len(types)}")
        reads = sorted(late_reads(lam) & set(captures))
        args = [ast.arg(p, copy.deepcopy(t)) for p, t in zip(params, types)] + \
            [ast.arg(c, copy.deepcopy(annotations[c])) for c in reads]
        body = ast.FunctionDef(body_name(factory, i, ordinal, name),
                               ast.arguments([], args, None, [], [], None, []),
                               [ast.Return(copy.deepcopy(lam.body))], [], copy.deepcopy(result), None)
        out.append(ast.fix_missing_locations(ast.copy_location(body, lam)))
    return out


def _callable_types(factory, returns):
    """([parameter annotations], result annotation) of `Callable[[A, ...], R]`."""
    ok = isinstance(returns, ast.Subscript) and isinstance(returns.slice, ast.Tuple) and \
        len(returns.slice.elts) == 2 and isinstance(returns.slice.elts[0], ast.List)
    if not ok:
        raise NotCrossing(f"its annotation {ast.unparse(returns)} does not spell the closure's parameter types "
                          "(Callable[[T, ...], R] does)")
    return returns.slice.elts[0].elts, returns.slice.elts[1]


def _immutable(annotation):
    name = _name(annotation)
    if name in SCALARS:
        return True
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):  # X | None
        return all(_immutable(side) or _is_none(side) for side in (annotation.left, annotation.right))
    if isinstance(annotation, ast.Subscript) and _name(annotation.value) in _TUPLES | _OPTIONALS:
        items = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return all(_immutable(t) or (isinstance(t, ast.Constant) and t.value is Ellipsis) for t in items)
    return False


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "typing":
        return node.attr
    return None
