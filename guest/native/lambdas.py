"""Lambdas compiled where they are called.

Two parts. Before lowering, `inline_lambdas` rewrites each function's tree:

- `f = lambda x: ...` at the top of a body, with `f` bound nowhere else, is
  dropped and every later `f` becomes that lambda, so `f(a)` is an
  immediately called lambda (and `map(f, xs)`, `key=f` take the lambda);
- `map(F, xs)` / `map(F, xs, ys)` / `filter(P, xs)` given straight to a
  consumer that takes a generator natively (list, set, sorted, sum, min,
  max, any, all, str.join) become that generator, `(F(m) for m in xs)`,
  and a `for` statement over one becomes a loop over `xs` that binds its
  target from `F(m)` (filter: skips what `P` rejects) before the body.

Then `(lambda x, y: body)(a, b)` is lowered as `let x = a; let y = b; body`
(`LambdaExprs`): the arguments evaluated once, in order, the parameters a
scope of their own around the body.

Why inlining keeps CPython's meaning: a lambda reads the names it captures
when it runs (late binding), and an inlined body reads them where it runs,
which is the same place and time; so a captured name may even be rebound
between the lambda's creation and its call. What inlining could change is
which binding a name means: a captured name that a comprehension, a `for`
target we introduce, or another lambda's parameter rebinds around the call
would be read from there instead, so that is refused. A map/filter is lazy
in CPython; it is only rewritten where its consumer takes every item at once
(or, for any/all and the `for` statement, one at a time as CPython does), so
no code runs between the items in either version that would not otherwise.
A lambda called where it is made may have defaults: they are evaluated
first, once each, then the arguments, as CPython makes the lambda before
it evaluates the call's arguments. A lambda used as a value (returned,
stored, passed elsewhere: callables.py compiles some of those), calling
itself, or with *args, keyword arguments or keyword-only parameters stays
Python."""
import ast
import copy

from . import irbuilder as ir
from .errors import CompileError

# Consumers that take a generator argument natively and draw every item in order.
_CONSUMERS = {"list", "set", "sorted", "sum", "min", "max", "any", "all"}
_ITEM = "__lambda_item"


def inline_lambdas(tree, refused=None):
    """Rewrite the lambdas and map/filter calls of every top-level function of @p tree in
    place. A function that cannot be rewritten raises CompileError, or with @p refused
    (a dict) keeps its tree and has its name mapped to the reason."""
    for i, node in enumerate(tree.body):
        if not isinstance(node, ast.FunctionDef):
            continue
        original = copy.deepcopy(node)
        try:
            _Inliner(node).run()
        except CompileError as e:
            if refused is None:
                raise
            refused[node.name] = str(e)
            tree.body[i] = original


def binding_counts(fdef):
    """How often each name is bound in @p fdef (parameters, stores, deletions, except names)."""
    counts = {}
    a = fdef.args
    for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
        counts[p.arg] = counts.get(p.arg, 0) + 1
    for n in ast.walk(fdef):
        name = None
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            name = n.id
        elif isinstance(n, ast.ExceptHandler) and n.name:
            name = n.name
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            for g in n.names:
                counts[g] = counts.get(g, 0) + 2
        if name is not None:
            counts[name] = counts.get(name, 0) + 1
    return counts


def named_lambda(stmt, counts):
    """Whether @p stmt (at the top of a body) is `f = lambda ...` with `f` bound only there
    (@p counts: binding_counts of the function): each later `f` may become the lambda. One
    with defaults may not (they are evaluated here, once): it is a function value
    (callables.py), its defaults held with its tag."""
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and \
        isinstance(stmt.value, ast.Lambda) and counts.get(stmt.targets[0].id) == 1 and not stmt.value.args.defaults


def lambda_parameters(lam):
    """(names, defaults) of @p lam's parameters, the defaults those of the last ones
    (CPython evaluates them once, where the lambda is made, before the call's arguments)."""
    a = lam.args
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg:
        raise CompileError(lam, "Lambda", "a lambda with *args or keyword-only parameters stays Python")
    return [p.arg for p in a.args], list(a.defaults)


def _free_names(lam):
    params = set(lambda_parameters(lam)[0])
    return {n.id for n in ast.walk(lam.body) if isinstance(n, ast.Name) and n.id not in params}


def names_bound_by(node):
    """Names a comprehension or lambda node binds for its sub-expressions."""
    if isinstance(node, ast.Lambda):
        return {p.arg for p in node.args.args + node.args.posonlyargs + node.args.kwonlyargs}
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        return {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    return set()


class _Inliner:
    def __init__(self, fdef):
        self.fdef = fdef
        self.stores = binding_counts(fdef)
        self.lambdas = {}  # local name -> its lambda (its free names checked at each use)
        taken = {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)}
        self.fresh = (f"{_ITEM}{i}" for i in range(1 << 30) if f"{_ITEM}{i}" not in taken)

    def run(self):
        self.fdef.body = self.block(self.fdef.body, top=True)

    def block(self, stmts, top=False):
        out = []
        for s in stmts:
            if top and named_lambda(s, self.stores):
                name = s.targets[0].id
                lam = self.expr(s.value, frozenset())
                lambda_parameters(lam)
                if name in _free_names(lam):
                    raise CompileError(s, "Lambda", f"lambda {name!r} calls itself; it stays Python")
                self.lambdas[name] = lam
                continue
            out.extend(self.stmt(s))
        return out

    def stmt(self, s):
        if isinstance(s, ast.For) and self.is_map_or_filter(s.iter):
            return self.for_over(s)
        for field, value in ast.iter_fields(s):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(s, field, self.block(value))
            elif isinstance(value, list):
                setattr(s, field, [self.expr(v, frozenset()) if isinstance(v, ast.expr) else self.handler(v)
                                   for v in value])
            elif isinstance(value, ast.expr):
                setattr(s, field, self.expr(value, frozenset()))
        return [s]

    def handler(self, node):
        if isinstance(node, (ast.ExceptHandler, ast.match_case)):
            node.body = self.block(node.body)
        return node

    def expr(self, node, bound):
        """@p node with local lambdas substituted; @p bound: names comprehensions and lambdas
        around it bind (a substituted lambda's captures must not be among them)."""
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in self.lambdas:
            lam = self.lambdas[node.id]
            clash = sorted(_free_names(lam) & bound)
            if clash:
                raise CompileError(node, "LambdaCapture", f"lambda {node.id!r} reads {clash[0]!r}, which is "
                                   "rebound where it is called; it stays Python")
            return ast.copy_location(copy.deepcopy(lam), node)
        if isinstance(node, ast.Call) and self.is_consumer(node) and node.args and \
                self.is_map_or_filter(node.args[0]):
            node.args[0] = self.as_generator(node.args[0])
        inner = bound | names_bound_by(node)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            # The first iterable is evaluated outside the comprehension, the rest inside.
            for i, g in enumerate(node.generators):
                self.sub(g, bound if i == 0 else inner, inner)
            for field in ("elt", "key", "value"):
                if hasattr(node, field):
                    setattr(node, field, self.expr(getattr(node, field), inner))
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.expr(value, inner))
            elif isinstance(value, list):
                setattr(node, field, [self.expr(v, inner) if isinstance(v, ast.expr) else self.sub(v, bound, inner)
                                      for v in value])
        return node

    def sub(self, node, outer, inner):
        if isinstance(node, ast.comprehension):
            node.iter = self.expr(node.iter, outer)
            node.ifs = [self.expr(c, inner) for c in node.ifs]
        elif isinstance(node, ast.keyword):
            node.value = self.expr(node.value, inner)
        return node

    def is_consumer(self, node):
        f = node.func
        if isinstance(f, ast.Name):
            return f.id in _CONSUMERS and self.stores.get(f.id) is None
        return isinstance(f, ast.Attribute) and f.attr == "join" and isinstance(f.value, ast.Constant)

    def is_map_or_filter(self, node):
        found = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in ("map", "filter") and self.stores.get(node.func.id) is None and not node.keywords and \
            len(node.args) >= 2 and not (node.func.id == "filter" and len(node.args) != 2) and \
            not any(isinstance(a, ast.Starred) for a in node.args)
        if found and isinstance(node.args[0], ast.Lambda) and node.args[0].args.defaults:
            # Called for each item, its defaults would be evaluated each time, not once before the first.
            raise CompileError(node, "Lambda", f"a lambda with defaults given to {node.func.id}() stays Python")
        return found

    def items(self, call):
        """(targets, iterable, element): fresh names, what they iterate (zip for several), and the item."""
        fn, sources = call.args[0], call.args[1:]
        names = [next(self.fresh) for _ in sources]
        loads = [ast.Name(n, ast.Load()) for n in names]
        if len(sources) == 1:
            target, source = ast.Name(names[0], ast.Store()), sources[0]
        else:
            target = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
            source = ast.Call(ast.Name("zip", ast.Load()), list(sources), [])
        if call.func.id == "map":
            return target, source, ast.Call(fn, loads, []), None
        keep = loads[0] if isinstance(fn, ast.Constant) and fn.value is None else ast.Call(fn, loads, [])
        return target, source, loads[0], keep

    def as_generator(self, call):
        target, source, item, keep = self.items(call)
        gen = ast.GeneratorExp(item, [ast.comprehension(target, source, [keep] if keep else [], 0)])
        return ast.fix_missing_locations(ast.copy_location(gen, call))

    def for_over(self, s):
        """for T in map(F, xs): body  ->  for m in xs: T = F(m); body (filter: skip first)."""
        target, source, item, keep = self.items(s.iter)
        head = []
        if keep is not None:
            head.append(ast.If(ast.UnaryOp(ast.Not(), keep), [ast.Continue()], []))
        head.append(ast.Assign([s.target], item))
        loop = ast.For(target, source, [ast.fix_missing_locations(ast.copy_location(h, s)) for h in head] + s.body,
                       s.orelse, None)
        loop = ast.fix_missing_locations(ast.copy_location(loop, s))
        return self.stmt(loop)


class LambdaExprs:
    """Mixed into ExprParser (exprparser.py): `(lambda x: body)(a)`."""

    def call_lambda(self, node):
        lam = node.func
        params, defaults = lambda_parameters(lam)
        if node.keywords:
            raise CompileError(node, "Lambda", "a lambda called with keyword arguments stays Python")
        least = len(params) - len(defaults)
        if not least <= len(node.args) <= len(params):
            raise CompileError(node, "Lambda", f"a lambda of {len(params)} parameter(s) called with "
                               f"{len(node.args)} argument(s)")
        # Evaluated in this order by the lets below: the defaults (the lambda is made first),
        # every one of them even when an argument replaces it, then the arguments.
        made = [self.value(d) for d in defaults]
        args = made + [self.value(a) for a in node.args]
        names = ["default" + p for p in params[least:]] + params[:len(node.args)]
        temps = [self.scope.temp("lambda." + p, a.ty) for p, a in zip(names, args)]
        chosen = list(range(len(made), len(args))) + list(range(len(node.args) - least, len(made)))
        frame = {p: ir.E(temps[i].node, temps[i].ty, True, args[i].borrowed) for p, i in zip(params, chosen)}
        self.scope.comprehensions.append(frame)
        try:
            body = self.value(lam.body)
        finally:
            self.scope.comprehensions.pop()
        for t, a in reversed(list(zip(temps, args))):
            body = ir.let(t, a, body)
        return body

    def visit_Lambda(self, node, expected=None):
        raise CompileError(node, "Lambda", "a lambda is compiled where it is called, given to map/filter or as "
                           "key=; used as a value it stays Python")
