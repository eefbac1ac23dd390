"""Functions as values: lambdas, nested defs and module functions stored,
passed and called later, with CPython's meaning.

Native code has no function objects. Every callee is known where the code
is compiled, so a function value is compiled away, in these ways:

- **Passed to a native function taking `Callable[...]`** (`apply_all(lambda
  x: x * k, xs)`): the callee is specialised to it. A copy of the callee
  (named like a lifted function, so Python never calls it) has that
  parameter replaced by the lambda wherever it is read, and the names the
  lambda captures from the caller become parameters of the copy, passed at
  the call (so do the names its defaults read: CPython reads them once,
  there, where it makes the lambda). Passing them by value is CPython's
  meaning: a closure reads its cells when it runs, and while the callee
  runs the caller is suspended, so nothing can rebind them in between (a
  lambda cannot assign, a nested def may not declare nonlocal). A capture
  needs a type, so it must be an annotated parameter or local of the
  caller. A copy that passes the function on specialises the next callee
  the same way; recursion reuses the copy made for the same lambda.
- **Stored in a local, list, tuple or dict and called in the same
  function** (dispatch tables, `fs.append(lambda: i)` in a loop, `for f in
  fs`, `for k, f in table.items()`): each distinct function the body names
  gets a small int, the *tag*, which is what the local or container holds,
  so subscripts, KeyError, IndexError, `len` and `in` are the container's
  own. A call of a function value becomes a dispatch on its tag over every
  function the body stores (its branches are filled once the whole body is
  read, so a function stored after the call's text is among them), each
  branch the lambda's body inlined where the call is (`(lambda t, a: L0(a)
  if t == 0 else L1(a))(fs[i], x)`: the callee evaluated first, then the
  arguments, as CPython does). Late binding holds by construction: the
  inlined body reads the captured names in the same frame, when the call
  runs. A tag exists only once its lambda was made, so a capture assigned
  where the lambda is made (checked while lowering, FunctionValueExprs) and
  never deleted is assigned at every call. What would change the meaning
  is refused with a CompileError: a lambda capturing a name that a
  comprehension or lambda binds where it is made or where it is called
  (CPython's cell would be another variable), or one that may be unassigned
  where it is made (a call could raise NameError), one calling a function
  value (recursion), function values of different arities in one
  function, and any other use of a function value (returned, compared,
  printed): the function stays Python.
- **With defaults** (`fs.append(lambda x, i=i: x + i)` in a loop, `[lambda
  y, i=i: y + i for i in xs]`): CPython evaluates a lambda's defaults once,
  where it is made, so two lambdas made by the same text may hold different
  ones. Where a function stores such a lambda, every function value it
  holds is a tuple, the tag and the defaults evaluated where it was made
  (`(lambda: (TAG, i))()`), and a call passes the defaults it does not
  replace from the tuple. One tuple type means one number of defaults (and
  their types) for every function value of the function. A lambda made in
  a comprehension that captures its variable without a default still reads
  that scope's cell when called, so it stays Python.

A function whose parameters include a `Callable` runs natively only through
its specialised copies; called from Python (with a Python callable) it stays
Python. The tags never reach Python: a container of function values that
is returned or passed elsewhere is refused like any other use.

Lambdas kept as values here are later inlined by lambdas.py, which infers
their parameter types from the arguments at each call (CPython's meaning
does not depend on the Callable annotation)."""
import ast
import copy

from .defaultpads import filler_like
from .errors import CompileError
from .lambdas import binding_counts, lambda_parameters, named_lambda, names_bound_by
from .nesting import lifted_name, parameters

# Builtins that are one-argument functions as values (`key=len`, `apply(abs, x)`).
BUILTIN_VALUES = {"len", "abs", "str", "int", "float", "bool", "ord", "chr", "sorted", "sum", "min", "max",
                  "list", "set", "tuple", "repr", "round"}
_TAG = "__fv_tag"
_ARG = "__fv_arg"
_CAPTURE = "__cap_"


def callable_spellings(tree):
    """(names, modules): the local names of typing/collections.abc `Callable`, and of the modules."""
    names, modules = set(), set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in ("typing", "collections.abc"):
            names |= {a.asname or a.name for a in node.names if a.name == "Callable"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name in ("typing",)}
    return names, modules


def mentions_callable(annotation, spellings):
    names, modules = spellings
    for n in ast.walk(annotation) if annotation is not None else ():
        if isinstance(n, ast.Name) and n.id in names:
            return True
        if isinstance(n, ast.Attribute) and n.attr == "Callable" and isinstance(n.value, ast.Name) and \
                n.value.id in modules:
            return True
    return False


def callable_parameters(fdef, spellings):
    a = fdef.args
    return [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs if mentions_callable(p.annotation, spellings)]


def _int_for_callable(annotation, spellings):
    """@p annotation with each Callable[...] replaced by int (what a tag is natively)."""
    class Respell(ast.NodeTransformer):
        def visit_Subscript(self, node):
            if mentions_callable(node.value, spellings):
                return ast.copy_location(ast.Name("int", ast.Load()), node)
            return self.generic_visit(node)

        def visit_Name(self, node):
            return ast.copy_location(ast.Name("int", ast.Load()), node) if node.id in spellings[0] else node
    return Respell().visit(annotation)


def late_reads(lam):
    """The names a lambda reads from around it when it runs (none for a function named as a
    value); its defaults are read where it is made."""
    if isinstance(lam, ast.Name):
        return set()
    return _reads(lam.body, frozenset(lambda_parameters(lam)[0]))


def _defaults_read(lam, callee):
    """The names the defaults of @p lam read, for a copy of @p callee that gets them as
    captures: passed by value at the call, which is where the lambda is made (CPython
    reads them then, once). A default that computes could raise or run code on each call
    of the copy instead, so it is refused."""
    if not isinstance(lam, ast.Lambda):
        return set()
    out = set()
    for d in lambda_parameters(lam)[1]:
        if isinstance(d, ast.Name):
            out.add(d.id)
        elif not isinstance(d, ast.Constant):
            raise CompileError(d, "LambdaDefault", f"the lambda passed to {callee}() has a default that is "
                               "neither a constant nor a name; it stays Python")
    return out


def _reads(node, bound):
    """Names @p node reads that neither @p bound nor a scope inside it binds."""
    if isinstance(node, ast.NamedExpr):
        raise CompileError(node, "Lambda", "a lambda that assigns (:=) stays Python")
    if isinstance(node, ast.Name):
        return {node.id} - bound if isinstance(node.ctx, ast.Load) else set()
    if isinstance(node, ast.Lambda):
        return _reads(node.body, bound | {p.arg for p in parameters(node)})
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        out = _reads(node.generators[0].iter, bound)  # the first iterable is read outside
        inner = bound | names_bound_by(node)
        for i, g in enumerate(node.generators):
            out |= set().union(*(_reads(c, inner) for c in g.ifs + ([g.iter] if i else [])))
        return out | set().union(*(_reads(getattr(node, f), inner) for f in ("elt", "key", "value")
                                   if hasattr(node, f)))
    return set().union(*(_reads(c, bound) for c in ast.iter_child_nodes(node)))


def named_lambdas(fdef, counts):
    """`f = lambda ...` at the top of @p fdef's body, f bound only there: name -> lambda
    (lambdas.py makes each later `f` the lambda itself)."""
    return {s.targets[0].id: s.value for s in fdef.body if named_lambda(s, counts)}


class _Module:
    """What the pass knows of the module: its functions and how Callable is spelled."""

    def __init__(self, tree):
        self.tree = tree
        self.spellings = callable_spellings(tree)
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.taken = None  # every name of the module, once a copy needs a fresh one
        self.copies = {}  # (callee, parameter -> template dump) -> name of its specialised copy
        self.made = []    # the copies, in the order made

    def may_hold_values(self, fdef):
        """Whether @p fdef may make, name, hold or pass a function value (most functions do
        not, and skip the pass); a function taking a Callable is not rewritten itself."""
        if callable_parameters(fdef, self.spellings):
            return False
        skip = set()  # ids of calls' callees and of annotations (they name int, str, ...)
        for n in ast.walk(ast.Module(fdef.body, [])):
            if id(n) in skip:
                if not isinstance(n, ast.Name):
                    skip.update(id(c) for c in ast.iter_child_nodes(n))
            elif isinstance(n, ast.Call):
                skip.add(id(n.func))
                if isinstance(n.func, ast.Name) and self.takes_callable(n.func.id):
                    return True
            elif isinstance(n, ast.Lambda):
                return True
            elif isinstance(n, ast.AnnAssign):
                if mentions_callable(n.annotation, self.spellings):
                    return True
                skip.add(id(n.annotation))
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and \
                    (n.id in self.functions or n.id in BUILTIN_VALUES):
                return True
        return False

    def takes_callable(self, name):
        f = self.functions.get(name)
        return f is not None and bool(callable_parameters(f, self.spellings))

    def named_template(self, name, locals_):
        """The function @p name means as a value (its Name: calls and key= take it as
        written), or None if it is not a module function or a builtin this compiler calls."""
        if name in locals_ or not (name in self.functions or name in BUILTIN_VALUES):
            return None
        return ast.Name(name, ast.Load())


def function_values(tree, refused=None):
    """Rewrite every top-level function of @p tree so that no function value is left
    (see the module docstring); specialised copies are added to tree.body before their
    first caller. A function that cannot be rewritten raises CompileError, or with
    @p refused (a dict) is kept as written and its name mapped to the reason. Functions
    taking a Callable are left as they are: strip_callable_takers removes them."""
    module = _Module(tree)
    body = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and module.may_hold_values(node):
            original, memo = copy.deepcopy(node), dict(module.copies)
            try:
                body.extend(_rewrite(module, node))
            except CompileError as e:
                if refused is None:
                    raise
                refused[node.name] = str(e)
                module.copies = memo
                body.append(original)
            continue
        body.append(node)
    tree.body = body


def _rewrite(module, fdef):
    """@p fdef rewritten, preceded by the copies it calls (each rewritten in its turn)."""
    start = len(module.made)
    _Specialiser(module, fdef).run()
    _Tags(module, fdef).run()
    new = module.made[start:]
    del module.made[start:]
    out = []
    for f in new:
        out.extend(_rewrite(module, f))
    return out + [fdef]


def strip_callable_takers(tree, refused=None):
    """Remove the functions taking a Callable (Python calls them with its own callables: they
    stay Python; native callers call their copies); with @p refused, say why."""
    spellings = callable_spellings(tree)
    kept = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            taking = callable_parameters(node, spellings)
            if taking:
                if refused is not None:
                    refused.setdefault(node.name, f"parameter {taking[0]!r} is a Callable: called from Python it "
                                       "stays Python (native callers run a copy specialised to what they pass)")
                continue
        kept.append(node)
    tree.body = kept


class _Specialiser:
    """Calls of Callable-taking module functions in one function go to specialised copies."""

    def __init__(self, module, fdef):
        self.module = module
        self.fdef = fdef
        self.bound = binding_counts(fdef)
        self.locals = set(self.bound)
        self.annotations = {p.arg: p.annotation for p in fdef.args.posonlyargs + fdef.args.args +
                            fdef.args.kwonlyargs}
        for n in ast.walk(fdef):
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                self.annotations.setdefault(n.target.id, n.annotation)
        self.single = named_lambdas(fdef, self.bound)

    def run(self):
        for n in list(ast.walk(self.fdef)):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in self.locals and \
                    self.module.takes_callable(n.func.id):
                self.specialise(n)

    def template(self, node):
        if isinstance(node, ast.Lambda):
            return node
        if isinstance(node, ast.Name) and node.id in self.single:
            return self.single[node.id]
        if isinstance(node, ast.Name):
            t = self.module.named_template(node.id, self.locals)
            if t is not None:
                return t
        raise CompileError(node, "FunctionValue", "a Callable argument natively is a lambda, a nested or module "
                           "function or a builtin named where it is passed (a function chosen at run time "
                           "stays Python)")

    def specialise(self, call):
        callee = self.module.functions[call.func.id]
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise CompileError(call, "FunctionValue", f"{callee.name}() is called with * or ** arguments")
        a = callee.args
        positional = [p.arg for p in a.posonlyargs + a.args]
        taking = set(callable_parameters(callee, self.module.spellings))
        given = dict(zip(positional, call.args))
        if len(call.args) > len(positional):
            raise CompileError(call, "FunctionValue", f"{callee.name}() is given too many arguments")
        for k in call.keywords:
            if k.arg in given:
                raise CompileError(call, "FunctionValue", f"{callee.name}() got {k.arg!r} twice")
            given[k.arg] = k.value
        templates, captures = {}, []
        for name in sorted(taking):
            if name not in given:
                raise CompileError(call, "FunctionValue", f"{callee.name}() needs its Callable {name!r}")
            lam = copy.deepcopy(self.template(given[name]))
            for free in sorted(late_reads(lam) & set(self.single)):
                raise CompileError(call, "LambdaCapture", f"the function passed to {callee.name}() calls the "
                                   f"lambda {free!r}; it stays Python")
            read = _defaults_read(lam, callee.name)
            if read and any(isinstance(n, ast.NamedExpr) for n in ast.walk(call)):
                raise CompileError(call, "LambdaDefault", f"a call of {callee.name}() assigning (:=) besides "
                                   "a lambda's defaults stays Python")
            captures.extend((late_reads(lam) | read) & self.locals)
            templates[name] = lam
        captures = sorted(set(captures))
        renamed = {c: c if c.startswith(_CAPTURE) else _CAPTURE + c for c in captures}
        for lam in templates.values():
            for n in ast.walk(lam):
                if isinstance(n, ast.Name) and n.id in renamed:
                    n.id = renamed[n.id]
        key = (callee.name, tuple((k, ast.dump(v)) for k, v in sorted(templates.items())))
        name = self.module.copies.get(key)
        if name is None:
            name = self.copy(callee, templates, captures, renamed, call)
            self.module.copies[key] = name
        call.func = ast.copy_location(ast.Name(name, ast.Load()), call.func)
        call.args = [v for p, v in zip(positional, call.args) if p not in taking]
        call.keywords = [k for k in call.keywords if k.arg not in taking] + \
            [ast.keyword(renamed[c], ast.Name(c, ast.Load())) for c in captures]
        ast.fix_missing_locations(call)

    def copy(self, callee, templates, captures, renamed, call):
        for c in captures:
            if mentions_callable(self.annotations.get(c), self.module.spellings):
                raise CompileError(call, "LambdaCapture", f"the function passed to {callee.name}() captures {c!r}, "
                                   "which holds function values; it stays Python")
            if self.annotations.get(c) is None:
                raise CompileError(call, "LambdaCapture", f"the function passed to {callee.name}() captures {c!r}, "
                                   f"which has no annotation in {self.fdef.name}(); annotate it to run natively")
        if self.module.taken is None:
            tree = self.module.tree
            self.module.taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | set(self.module.functions)
        base = lifted_name(callee.name, f"with{len(self.module.copies)}")
        while base in self.module.taken:
            base += "_"
        self.module.taken.add(base)
        f = copy.deepcopy(callee)
        f.name = base
        stores = binding_counts(f)
        shadowing = {a.arg for n in ast.walk(f) if isinstance(n, ast.Lambda) for a in parameters(n)}
        for p in templates:
            if stores.get(p, 0) > 1 or p in shadowing:
                raise CompileError(callee, "FunctionValue", f"{callee.name}() binds its Callable {p!r} again")
        a = f.args
        drop = set(templates)
        keep_pos = [p for p in a.posonlyargs + a.args if p.arg not in drop]
        n_defaults = len(a.defaults)
        pos = a.posonlyargs + a.args
        defaulted = {p.arg: d for p, d in zip(pos[len(pos) - n_defaults:], a.defaults)} if n_defaults else {}
        a.posonlyargs = [p for p in a.posonlyargs if p.arg not in drop]
        a.args = [p for p in a.args if p.arg not in drop]
        a.defaults = [defaulted[p.arg] for p in keep_pos if p.arg in defaulted]
        kw = [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if p.arg not in drop]
        kw += [(ast.arg(renamed[c], copy.deepcopy(self.annotations[c])), None) for c in captures]
        a.kwonlyargs = [p for p, _ in kw]
        a.kw_defaults = [d for _, d in kw]

        class Substitute(ast.NodeTransformer):
            def visit_Name(self, node):
                if isinstance(node.ctx, ast.Load) and node.id in templates:
                    return ast.copy_location(copy.deepcopy(templates[node.id]), node)
                return node
        f.body = [Substitute().visit(s) for s in f.body]
        ast.fix_missing_locations(f)
        self.module.made.append(f)
        return base


class _Tags:
    """Function values held by locals and containers of one function, as tags."""

    def __init__(self, module, fdef):
        self.module = module
        self.fdef = fdef
        self.bound = binding_counts(fdef)
        taken = {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)}
        self.fresh = (i for i in range(1 << 30) if f"{_TAG}{i}" not in taken)
        # A local bound once to a lambda at the top of the body is inlined by lambdas.py.
        self.inlined = named_lambdas(fdef, self.bound)
        self.scalars, self.containers = set(), set()
        self.templates = []   # tag -> lambda
        self.tag_of = {}      # function name -> its tag
        self.allowed = set()  # ids of the Name nodes of function-value locals in allowed places
        self.dispatches = []  # the calls of function values, their bodies to fill
        self.dicts, self.deleted = set(), set()  # locals assigned a dict display; locals deleted
        # A lambda's defaults are evaluated once, where it is made, and differ from one lambda
        # made there to the next (`lambda x, i=i:` in a loop): its value is then a tuple, its
        # tag and its defaults, and so is every function value of the function.
        self.tupled = _stored_with_defaults(fdef)
        self.held_tuples = []  # (tuple, template, number of defaults) of every function value made
        for n in ast.walk(fdef):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, (ast.Dict, ast.DictComp)):
                self.dicts |= {t.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                               if isinstance(t, ast.Name)}
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del):
                self.deleted.add(n.id)

    # ---- which locals hold function values ---------------------------------------
    def literal(self, node):
        """Is @p node a function named or made right there?"""
        if isinstance(node, ast.Lambda):
            return True
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id in self.inlined:
                return True
            return node.id not in self.bound and self.module.named_template(node.id, set(self.bound)) is not None
        return False

    def is_value(self, node):
        if self.literal(node):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.scalars
        if isinstance(node, ast.Subscript):
            return isinstance(node.value, ast.Name) and node.value.id in self.containers
        if isinstance(node, ast.IfExp):
            return self.is_value(node.body) or self.is_value(node.orelse)
        return False

    def elements(self, node):
        if isinstance(node, (ast.List, ast.Tuple)):
            return node.elts
        if isinstance(node, ast.Dict):
            return node.values
        return None

    def find(self):
        spell = self.module.spellings
        changed = True
        while changed:
            changed = False
            for n in ast.walk(self.fdef):
                scalar, container = set(), set()
                if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    names = [t.id for t in targets if isinstance(t, ast.Name)]
                    elems = self.elements(n.value)
                    if self.is_value(n.value):
                        scalar |= {x for x in names if not (x in self.inlined and n.value is self.inlined[x])}
                    elif elems and any(self.is_value(e) for e in elems):
                        container |= set(names)
                    elif isinstance(n.value, (ast.ListComp, ast.DictComp)) and self.is_value(_made_by(n.value)):
                        container |= set(names)
                    if isinstance(n, ast.AnnAssign) and mentions_callable(n.annotation, spell) and names:
                        (container if elems is not None else scalar).update(names)
                    if self.is_value(n.value):  # `table[k] = lambda ...`: table holds function values
                        container |= {t.value.id for t in targets if isinstance(t, ast.Subscript) and
                                      isinstance(t.value, ast.Name)}
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                        isinstance(n.func.value, ast.Name) and n.func.attr in ("append", "insert") and \
                        n.args and self.is_value(n.args[-1]):
                    container.add(n.func.value.id)
                elif isinstance(n, (ast.For, ast.comprehension)):
                    scalar |= self.loop_values(n)
                if scalar - self.scalars or container - self.containers:
                    self.scalars |= scalar
                    self.containers |= container
                    changed = True
        both = self.scalars & self.containers
        if both:
            raise CompileError(self.fdef, "FunctionValue", f"{sorted(both)[0]!r} holds both a function and a "
                               "container of functions")
        params = {p.arg for p in self.fdef.args.posonlyargs + self.fdef.args.args + self.fdef.args.kwonlyargs}
        for name in sorted((self.scalars | self.containers) & params):
            raise CompileError(self.fdef, "FunctionValue", f"parameter {name!r} would hold a function value")

    def view(self, node):
        """`C.values()` / `C.items()` of a dict of function values: (the view, C's Name), else None."""
        if isinstance(node, ast.Call) and not node.args and not node.keywords and \
                isinstance(node.func, ast.Attribute) and node.func.attr in ("values", "items") and \
                self.is_dict_container(node.func.value):
            return node.func.attr, node.func.value
        return None

    def loop_values(self, node):
        """The names a `for` or comprehension @p node binds to function values (a list's or
        tuple's items, a dict's values); a dict's keys are not."""
        target, view = node.target, self.view(node.iter)
        if view is not None and view[0] == "values" and isinstance(target, ast.Name):
            return {target.id}
        if view is not None and view[0] == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2 \
                and isinstance(target.elts[1], ast.Name):
            return {target.elts[1].id}
        if isinstance(target, ast.Name) and isinstance(node.iter, ast.Name) and node.iter.id in self.containers \
                and not self.is_dict_container(node.iter):
            return {target.id}
        if isinstance(target, ast.Name) and isinstance(node.iter, (ast.List, ast.Tuple)) and node.iter.elts and \
                all(self.is_value(e) for e in node.iter.elts):
            return {target.id}  # `for f in [inc, dbl]`
        return set()

    def is_dict_container(self, node):
        return isinstance(node, ast.Name) and node.id in self.containers and node.id in self.dicts

    # ---- rewriting -------------------------------------------------------------------
    def run(self):
        self.find()
        if not self.scalars and not self.containers:
            return
        self.fdef.body = [self.stmt(s) for s in self.fdef.body]
        self.fill_missing_defaults()
        for d in self.dispatches:
            self.fill_dispatch(*d)
        self.check_uses()

    def tag(self, node, bound):
        """The tag expression for a function-value expression @p node."""
        if isinstance(node, ast.Lambda) or (isinstance(node, ast.Name) and node.id in self.inlined
                                            and node.id not in self.scalars):
            lam = node if isinstance(node, ast.Lambda) else self.inlined[node.id]
            free = late_reads(lam)
            for name in sorted(free & bound):
                raise CompileError(node, "LambdaCapture", f"a lambda capturing {name!r}, which a comprehension or "
                                   "lambda binds where it is made, stays Python as a value (its cell is that "
                                   "scope's)")
            for name in sorted(free & (self.scalars | self.containers)):
                raise CompileError(node, "LambdaCapture", f"a lambda calling the function value {name!r} stays "
                                   "Python")
            for name in sorted(free & set(self.inlined)):
                raise CompileError(node, "LambdaCapture", f"a lambda calling the lambda {name!r} stays Python")
            key = id(lam) if isinstance(node, ast.Lambda) else node.id
            if key not in self.tag_of:
                self.tag_of[key] = len(self.templates)
                self.templates.append(lam)
            # `(lambda: TAG)()`, marked: lowering checks its captures are assigned where it is made.
            made = ast.Lambda(ast.arguments([], [], None, [], [], None, []),
                              self.held(self.tag_of[key], lam, [self.expr(copy.deepcopy(d), bound)
                                                                for d in lambda_parameters(lam)[1]]
                                        if self.tupled else []))
            made.made_capturing = sorted(free & set(self.bound))
            for name in made.made_capturing:
                if name in self.deleted:
                    raise CompileError(node, "LambdaCapture", f"a lambda capturing {name!r}, which is deleted, "
                                       "stays Python")
            return ast.fix_missing_locations(ast.copy_location(ast.Call(made, [], []), node))
        if self.literal(node):
            if node.id not in self.tag_of:
                self.tag_of[node.id] = len(self.templates)
                self.templates.append(self.module.named_template(node.id, set(self.bound)))
            return ast.copy_location(self.held(self.tag_of[node.id], node, []), node)
        if isinstance(node, ast.Name) and node.id in self.scalars:
            self.allowed.add(id(node))
            return node
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.containers:
            self.allowed.add(id(node.value))
            node.slice = self.expr(node.slice, bound)
            return node
        if isinstance(node, ast.IfExp):
            node.test = self.expr(node.test, bound)
            node.body = self.tag(node.body, bound)
            node.orelse = self.tag(node.orelse, bound)
            return node
        raise CompileError(node, "FunctionValue", "only a function (a lambda, a nested, module or builtin "
                           "function) may be stored where function values are")

    def held(self, tag, template, defaults):
        """What a function value holds: its tag, or in tuple mode its tag and @p defaults."""
        if not self.tupled:
            return ast.Constant(tag)
        held = ast.Tuple([ast.Constant(tag)] + defaults, ast.Load())
        self.held_tuples.append((held, template, len(defaults)))
        return held

    def fill_missing_defaults(self):
        """Every function value's tuple gets the slots of the one with most defaults: a value
        with fewer fills them with a constant of their type (defaultpads.py), never read."""
        donors = {}  # slot -> the first default held there
        for _, template, n in self.held_tuples:
            for j in range(n):
                donors.setdefault(j, (template, lambda_parameters(template)[1][j]))
        for held, template, n in self.held_tuples:
            for j in range(n, len(donors)):
                filler = filler_like(donors[j][1], self.fdef)
                if filler is None:
                    raise CompileError(donors[j][0], "FunctionValue", f"function values with {n} and {len(donors)} "
                                       f"defaults in one function stay Python (the type of {ast.unparse(donors[j][1])} "
                                       "is not known before lowering)")
                held.elts.append(ast.copy_location(filler, held))

    def stmt(self, s):
        if isinstance(s, ast.AnnAssign) and self.tupled and mentions_callable(s.annotation, self.module.spellings):
            # The tuple's types are those of the defaults, which lowering infers.
            if s.value is None:
                return ast.copy_location(ast.Pass(), s)
            s = ast.copy_location(ast.Assign([s.target], s.value), s)
        if isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None:
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            if isinstance(s, ast.AnnAssign) and mentions_callable(s.annotation, self.module.spellings):
                s.annotation = _int_for_callable(s.annotation, self.module.spellings)
            kinds = {self.kind(t) for t in targets}
            if kinds == {"scalar"}:
                if isinstance(s.value, ast.Lambda) or self.is_value(s.value):
                    s.value = self.tag(s.value, frozenset())
                    for t in targets:
                        self.allowed.add(id(t))
                    return s
            elif kinds == {"container"} and isinstance(s.value, (ast.ListComp, ast.DictComp)):
                self.made_in_comprehension(s.value)
                for t in targets:
                    self.allowed.add(id(t))
                return s
            elif kinds == {"container"}:
                elems = self.elements(s.value)
                if elems is not None:
                    if isinstance(s.value, ast.Dict):
                        s.value.keys = [self.expr(k, frozenset()) if k is not None else k for k in s.value.keys]
                        s.value.values = [self.tag(v, frozenset()) for v in s.value.values]
                    else:
                        s.value.elts = [self.tag(v, frozenset()) for v in s.value.elts]
                    for t in targets:
                        self.allowed.add(id(t))
                    return s
            elif kinds == {"element"}:
                t = targets[0]
                self.allowed.add(id(t.value))
                t.slice = self.expr(t.slice, frozenset())
                s.value = self.tag(s.value, frozenset())
                return s
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
                and s.value.func.attr in ("append", "insert") and isinstance(s.value.func.value, ast.Name) and \
                s.value.func.value.id in self.containers and s.value.args:
            call = s.value
            self.allowed.add(id(call.func.value))
            call.args = [self.expr(a, frozenset()) for a in call.args[:-1]] + [self.tag(call.args[-1], frozenset())]
            return s
        if isinstance(s, ast.For):
            self.loop(s)
        for field, value in ast.iter_fields(s):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(s, field, [self.stmt(x) for x in value])
            elif isinstance(value, list):
                setattr(s, field, [self.expr(v, frozenset()) if isinstance(v, ast.expr) else self.sub(v)
                                   for v in value])
            elif isinstance(value, ast.expr):
                setattr(s, field, self.expr(value, frozenset()))
        return s

    def made_in_comprehension(self, comp):
        """`[lambda ... for i in xs]`, `{k: lambda ... for k in ks}`: each item made by a
        lambda in the comprehension's scope (tag() refuses one capturing its variables)."""
        inner = names_bound_by(comp)
        for i, g in enumerate(comp.generators):
            self.loop(g)
            g.iter = self.expr(g.iter, frozenset() if i == 0 else inner)
            g.ifs = [self.expr(c, inner) for c in g.ifs]
        if isinstance(comp, ast.DictComp):
            comp.key = self.expr(comp.key, inner)
            comp.value = self.tag(comp.value, inner)
        else:
            comp.elt = self.tag(comp.elt, inner)

    def loop(self, node):
        """A `for` or comprehension over a container of function values: its items are function
        values (a dict's are its keys)."""
        values = self.loop_values(node)
        for n in ast.walk(node.target):
            if isinstance(n, ast.Name) and n.id in values:
                self.allowed.add(id(n))
        view = self.view(node.iter)
        if values and isinstance(node.iter, (ast.List, ast.Tuple)):
            node.iter.elts = [self.tag(e, frozenset()) for e in node.iter.elts]
        elif view is not None:
            self.allowed.add(id(view[1]))
        elif values or self.is_dict_container(node.iter):
            self.allowed.add(id(node.iter))

    def sub(self, node):
        if isinstance(node, (ast.ExceptHandler, ast.match_case)):
            node.body = [self.stmt(x) for x in node.body]
        elif isinstance(node, ast.keyword):
            node.value = self.expr(node.value, frozenset())
        return node

    def kind(self, target):
        if isinstance(target, ast.Name):
            return "scalar" if target.id in self.scalars else "container" if target.id in self.containers else None
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                target.value.id in self.containers:
            return "element"
        return None

    def expr(self, node, bound):
        if isinstance(node, ast.Call) and not isinstance(node.func, ast.Lambda) and self.is_value(node.func) and \
                not self.literal(node.func):
            return self.dispatch(node, bound)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and \
                len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in self.containers:
            self.allowed.add(id(node.args[0]))
            return node
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                and self.is_dict_container(node.comparators[0]):
            self.allowed.add(id(node.comparators[0]))
            node.left = self.expr(node.left, bound)
            return node
        inner = bound | names_bound_by(node)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for i, g in enumerate(node.generators):
                self.loop(g)
                g.iter = self.expr(g.iter, bound if i == 0 else inner)
                g.ifs = [self.expr(c, inner) for c in g.ifs]
            for field in ("elt", "key", "value"):
                if hasattr(node, field):
                    setattr(node, field, self.expr(getattr(node, field), inner))
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.expr(value, inner))
            elif isinstance(value, list):
                setattr(node, field, [self.expr(v, inner) if isinstance(v, ast.expr) else self.kw(v, inner)
                                      for v in value])
        return node

    def kw(self, node, bound):
        if isinstance(node, ast.keyword):
            node.value = self.expr(node.value, bound)
        return node

    def dispatch(self, call, bound):
        """`F(args)` for a function value F: its tag and arguments bound in order, then the
        body of the function the tag names."""
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            raise CompileError(call, "FunctionValue", "a function value is called with positional arguments only")
        if id(call.func) in _lambda_parameter_names(self.fdef):
            raise CompileError(call, "FunctionValue", f"a lambda calls its parameter {call.func.id!r}, named like "
                               "a local holding function values; it stays Python")
        callee = self.tag(call.func, bound)
        args = [self.expr(a, bound) for a in call.args]
        i = next(self.fresh)
        tag = f"{_TAG}{i}"
        names = [f"{_ARG}{i}_{k}" for k in range(len(args))]
        # Its body is filled once every function the body stores has its tag (fill_dispatch).
        let = ast.Lambda(ast.arguments([], [ast.arg(tag)] + [ast.arg(n) for n in names], None, [], [], None, []),
                         ast.Constant(None))
        self.dispatches.append((call, let, tag, names, bound))
        out = ast.Call(let, [callee] + args, [])
        return ast.fix_missing_locations(ast.copy_location(out, call))

    def fill_dispatch(self, call, let, tag, names, bound):
        if not self.templates:
            raise CompileError(call, "FunctionValue", "no function is ever stored here")
        for lam in self.templates:
            if isinstance(lam, ast.Name):
                continue  # a named function: its call is checked like any other
            params, defaults = lambda_parameters(lam)
            if not len(params) - len(defaults) <= len(names) <= len(params):
                raise CompileError(call, "FunctionValue", f"function values taking {len(params)} and {len(names)} "
                                   "arguments in one function stay Python")
            for name in sorted(late_reads(lam) & bound):
                raise CompileError(call, "LambdaCapture", f"a function value reads {name!r}, which is rebound "
                                   "where it is called; it stays Python")
        branches = []
        for template in self.templates:
            branch = ast.Call(copy.deepcopy(template), [ast.Name(n, ast.Load()) for n in names], [])
            if isinstance(branch.func, ast.Lambda) and branch.func.args.defaults:
                # The defaults the call does not replace are those the value holds, made with it.
                missing = range(len(names) - (len(branch.func.args.args) - len(branch.func.args.defaults)),
                                len(branch.func.args.defaults))
                branch.args += [item(tag, 1 + j) for j in missing]
                branch.func.args.defaults = []
            branches.append(branch)
        choice = one_of(item(tag, 0) if self.tupled else ast.Name(tag, ast.Load()), branches)
        let.body = ast.fix_missing_locations(ast.copy_location(choice, call))
        let.assume_captured = sorted(set().union(*(late_reads(t) for t in self.templates)) & set(self.bound))

    def check_uses(self):
        held = self.scalars | self.containers
        own = _lambda_parameter_names(self.fdef)  # another variable (`key=lambda r: r[0]`, r a local too)
        for n in ast.walk(self.fdef):
            if isinstance(n, ast.Name) and n.id in held and id(n) not in self.allowed and id(n) not in own:
                raise CompileError(n, "FunctionValue", f"{n.id!r} holds function values: natively they may be "
                                   "called, stored in locals, lists, tuples and dicts, looked up and counted; "
                                   "used otherwise (returned, compared, printed) the function stays Python")


def _lambda_parameter_names(fdef):
    """The ids of the Name nodes of @p fdef that read a lambda's own parameter."""
    out = set()

    def visit(node, params):
        if isinstance(node, ast.Lambda):
            params = params | {p.arg for p in parameters(node)}
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            params = params - names_bound_by(node)  # the comprehension's own variable
        elif isinstance(node, ast.Name) and node.id in params:
            out.add(id(node))
        for child in ast.iter_child_nodes(node):
            visit(child, params)
    visit(fdef, frozenset())
    return out


def item(name, i):
    """`name[i]`."""
    return ast.Subscript(ast.Name(name, ast.Load()), ast.Constant(i), ast.Load())


def one_of(which, branches):
    """`B0 if which == 0 else B1 if which == 1 ... else Bn`: the branch @p which names."""
    choice = branches[-1]
    for t in reversed(range(len(branches) - 1)):
        choice = ast.IfExp(ast.Compare(copy.deepcopy(which), [ast.Eq()], [ast.Constant(t)]), branches[t], choice)
    return choice


def _made_by(comp):
    return comp.value if isinstance(comp, ast.DictComp) else comp.elt


def _stored_with_defaults(fdef):
    """Whether @p fdef has a lambda with defaults that may be a function value: not called
    where it is made, nor given as a keyword argument (key=)."""
    direct = set()
    for n in ast.walk(fdef):
        if isinstance(n, ast.Call):
            direct.add(id(n.func))
            direct.update(id(k.value) for k in n.keywords)
    return any(isinstance(n, ast.Lambda) and n.args.defaults and id(n) not in direct for n in ast.walk(fdef))


class FunctionValueExprs:
    """Mixed into ExprParser before LambdaExprs: the two lambdas _Tags makes. A function
    value's tag exists only once its lambda was made, so where it was made its captures
    must be assigned (else CPython could raise NameError at a call, which native code
    cannot tell); and then, never deleted, they are assigned at every call the tag reaches,
    which the flow analysis of the call site cannot see by itself."""

    def call_lambda(self, node):
        made = getattr(node.func, "made_capturing", None)
        if made:
            for name in made:
                if self.flow.reachable and name not in self.flow.assigned:
                    raise CompileError(node, "LambdaCapture", f"a lambda capturing {name!r} made where {name!r} may "
                                       "not be assigned yet stays Python as a value")
        flow = self.flow
        assumed = [n for n in getattr(node.func, "assume_captured", ()) if n not in flow.assigned]
        flow.assigned.update(assumed)
        try:
            return super().call_lambda(node)
        finally:
            flow.assigned.difference_update(assumed)
            self.flow.assigned.difference_update(assumed)
