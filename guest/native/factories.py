"""Closures returned by a function and used by native code:
`def make_adder(n: int) -> Callable[[int], int]: def add(x): return x + n;
return add`, then `add5 = make_adder(5)` ... `add5(x)`.

A closure reads its captures when it runs, but once the function that made
it has returned nothing rebinds them (a nested function may not declare
nonlocal): what it reads is what they held at that return. So capturing
them by value when the factory returns is CPython's meaning, even for a
parameter it rebound before (a returned lambda may capture one; lifting
refuses a nested def that does). The captures must be annotated parameters,
or locals whose assignments all give them one scalar type (localtypes.py),
so that their values have a type.

For native callers the factory becomes a lifted function,
`make_adder__in__0state`: its body,
validation and all, with each `return <closure i>` replaced by `return (i,
captures...)`. Each call `make_adder(a)` in another function becomes a
lambda whose one default is that state, `lambda p, __closure=
make_adder__in__0state(a): <closure i's body, captures read from the
state>`: a lambda's defaults are evaluated where it is made, once, as the
factory runs where it is called, once, so errors and their order are
CPython's. callables.py then holds it as a function value with its default
(stored in a local or container, called later, built in a loop), and
called at once, `make_adder(5)(x)`, lambdas.py inlines it.

Python's callers get the factory natively too where its closures can cross
(crossing.py): the state function is exported, with one function per
closure that Python's calls of it run (loader.py, native_factory)."""
import ast
import copy

from .callables import callable_spellings, item, late_reads, mentions_callable, one_of
from .loader import state_name
from .crossing import NotCrossing, crossing_bodies
from .errors import CompileError
from .lambdas import binding_counts, lambda_parameters, names_bound_by
from .localtypes import inferred_types
from .nesting import parameters

_STATE = "__closure"
_PARAM = "__closure_p"


def closure_factories(tree, refused=None, kept=None):
    """Replace each function of @p tree returning a Callable by its state function (and the
    bodies of its closures, for Python's callers) and rewrite its calls in the other
    functions (see the module docstring). A factory that cannot be is left as written: it
    raises CompileError, or with @p refused (a dict) has its name mapped to the reason (a
    function already in @p refused is skipped). A factory whose closures cannot cross into
    Python is mapped to why in @p kept (and @p refused). Returns {factory: the names of its
    state function and closure bodies} for those whose closures cross."""
    spellings = callable_spellings(tree)
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    factories, body, failed, crossing = {}, [], set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.returns is not None and \
                mentions_callable(node.returns, spellings):
            if node.name in (refused or {}):
                failed.add(node.name)
                body.append(node)
                continue
            try:
                state, made, bodies = _state_function(node, taken)
            except CompileError as e:
                if refused is None:
                    raise
                refused[node.name] = str(e)
                failed.add(node.name)
                body.append(node)
                continue
            factories[node.name] = (state.name, made)
            body.append(state)
            if isinstance(bodies, NotCrossing):
                why = f"{node.name}() returns a closure that stays Python for Python callers: {bodies}"
                for reasons in (refused, kept):
                    if reasons is not None:
                        reasons[node.name] = why
                continue
            body.extend(bodies)
            crossing[node.name] = [state.name] + [b.name for b in bodies]
            continue
        body.append(node)
    tree.body = body
    for node in tree.body if failed else ():  # a closure that stays Python is not called natively either
        if isinstance(node, ast.FunctionDef) and node.name not in refused:
            called = sorted(n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and
                            isinstance(n.func, ast.Name) and n.func.id in failed)
            if called and called[0] not in binding_counts(node):
                refused[node.name] = f"calls {called[0]}(), which is not eligible ({refused[called[0]]})"
    if factories:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                _rewrite_calls(node, factories)
    return crossing


def _state_function(fdef, taken):
    """(the state function of @p fdef, the closures it returns as templates, the bodies of
    those closures Python's calls run or NotCrossing)."""
    returns = [n for n in ast.walk(fdef) if isinstance(n, ast.Return)]
    made = []
    for r in returns:
        if not isinstance(r.value, ast.Lambda):
            raise CompileError(r, "ClosureReturn", f"{fdef.name}() returns a function natively only as a lambda or "
                               "a nested function named where it returns")
        params, defaults = lambda_parameters(r.value)
        if defaults:
            raise CompileError(r, "ClosureReturn", f"{fdef.name}() returns a lambda with defaults; it stays Python")
        made.append(r.value)
    if not made:
        raise CompileError(fdef, "ClosureReturn", f"{fdef.name}() is annotated to return a function and never does")
    arity = {len(lam.args.args) for lam in made}
    if len(arity) > 1:
        raise CompileError(fdef, "ClosureReturn", f"{fdef.name}() returns functions taking different numbers of "
                           "arguments; it stays Python")
    counts = binding_counts(fdef)
    annotations = {p.arg: p.annotation for p in parameters(fdef)}
    captures = sorted(set().union(*(late_reads(lam) for lam in made)) & set(counts))
    # A local whose assignments all give it one scalar type is captured as that type.
    annotations.update(inferred_types(fdef, [c for c in captures if annotations.get(c) is None], annotations))
    for c in captures:
        if annotations.get(c) is None:
            raise CompileError(fdef, "ClosureCapture", f"the closure {fdef.name}() returns captures {c!r}, which is "
                               f"not an annotated parameter of {fdef.name}() (its type is not known there)")
    for lam in made:
        for n in ast.walk(lam.body):
            for c in sorted(names_bound_by(n) & set(captures)):
                raise CompileError(n, "ClosureCapture", f"the closure {fdef.name}() returns binds its capture {c!r} "
                                   "again inside; it stays Python")
    name = state_name(fdef.name)
    if name in taken:
        raise CompileError(fdef, "ClosureReturn", f"the name {name!r} is taken")
    taken.add(name)
    try:
        bodies = crossing_bodies(fdef.name, made, captures, annotations, fdef.returns)
        if any(b.name in taken for b in bodies):
            raise NotCrossing(f"the name {next(b.name for b in bodies if b.name in taken)!r} is taken")
        taken.update(b.name for b in bodies)
    except NotCrossing as e:
        bodies = e
    state = copy.deepcopy(fdef)
    state.name = name
    state.returns = ast.Subscript(ast.Name("tuple", ast.Load()), ast.Tuple(
        [ast.Name("int", ast.Load())] + [copy.deepcopy(annotations[c]) for c in captures], ast.Load()), ast.Load())
    for i, r in enumerate(n for n in ast.walk(state) if isinstance(n, ast.Return)):
        r.value = ast.copy_location(ast.Tuple([ast.Constant(i)] + [ast.Name(c, ast.Load()) for c in captures],
                                              ast.Load()), r.value)
    ast.fix_missing_locations(state)
    templates = [_read_from_state(lam, captures) for lam in made]
    return state, (templates, arity.pop()), bodies


def _read_from_state(lam, captures):
    """@p lam with each capture read from the state tuple (slot 0 says which closure)."""
    lam = copy.deepcopy(lam)
    own = set(lambda_parameters(lam)[0])

    class Read(ast.NodeTransformer):
        def visit_Name(self, node):
            if isinstance(node.ctx, ast.Load) and node.id in captures and node.id not in own:
                return ast.copy_location(item(_STATE, 1 + captures.index(node.id)), node)
            return node
    lam.body = Read().visit(lam.body)
    return lam


def _rewrite_calls(fdef, factories):
    """Each call of a factory in @p fdef (not shadowed by a local) becomes the closure it
    returns, a lambda holding the factory's state as its default."""
    local = set(binding_counts(fdef))

    class Calls(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            f = node.func
            if not (isinstance(f, ast.Name) and f.id in factories and f.id not in local):
                return node
            state, (templates, arity) = factories[f.id]
            params = [f"{_PARAM}{i}" for i in range(arity)]
            args = [ast.Name(p, ast.Load()) for p in params]
            choice = one_of(item(_STATE, 0), [ast.Call(copy.deepcopy(t), list(args), []) for t in templates])
            made = ast.Call(ast.Name(state, ast.Load()), node.args, node.keywords)
            lam = ast.Lambda(ast.arguments([], [ast.arg(p) for p in params + [_STATE]], None, [], [], None, [made]),
                             choice)
            return ast.fix_missing_locations(ast.copy_location(lam, node))
    fdef.body = [Calls().visit(s) for s in fdef.body]
