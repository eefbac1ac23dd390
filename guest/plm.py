"""PLM: start independent speculative tool calls early, deliver them in place.

`transform(source, manifest)` parses the program and rewrites some calls of
speculative tools:

    b = lookup(key=n + 1)        _spine_h1 = _spine_prepare('lookup', "{'key': n + 1}", lambda: {'n': n})
                          ==>    ...
                                 b = _spine_resolve(_spine_h1, 'lookup', key=n + 1)

The prepare statement is inserted at the earliest statement where the names
the arguments read hold their final value; the call itself keeps its place and
its argument expressions, so values, tool errors and argument errors still
happen exactly where the plain program has them. A prepare whose arguments do
not match the resolve (a wrong guess) costs time, never meaning: the host
compares the two requests and runs the call normally on a mismatch.

What makes this safe is not the placement but two properties: the program's
code never runs early -- a prepare only reads names, and the argument text is
computed by early evaluation (early.py), which applies its closed set of
operations to plain data only and starts nothing otherwise (see `Purity`) --
and a rewritten call always finds its handle variable bound (prepare
statements dominate their call sites). The placement (`Planner`) only
decides how much is gained, with one rule of meaning: effects order reads --
a prepare never goes above a call that may write what its tool reads
(effects.py). See PLM_RATIONALE.md for the choices.

The module has four parts: program facts (`ProgramFacts`, names bound
anywhere, escape hatches), the purity check (`Purity`), the planner (where each
prepare goes) and the rewriter (`_apply`). It never runs user code.
"""
import ast
import bisect
from dataclasses import dataclass, field

import early
from effects import NOTHING, ProgramEffects, ToolEffects, conflict, is_generator
from policy import REFLECTIVE_NAMES, is_reflective_attr

__all__ = ["transform"]

# resolve_call(handle, name, **args): a tool keyword with one of these names
# would collide with resolve_call's own parameters, so such calls stay plain.
RESOLVE_PARAMS = frozenset({"handle", "name"})

# Builtins the generated fan-out code relies on.
GENERATED_BUILTINS = frozenset({"enumerate", "Exception"})

# For placement only (a wrong guess costs time, not meaning): calls that do
# not change their arguments in place. Builtins that only read them, methods
# that only read their receiver and arguments, and methods that store their
# arguments in the receiver (which they do change).
READING_BUILTINS = frozenset({
    "print", "len", "str", "repr", "int", "float", "bool", "abs", "round", "min", "max", "sorted",
    "sum", "any", "all", "list", "tuple", "set", "frozenset", "dict", "enumerate", "zip", "range",
    "isinstance", "format", "hash", "reversed", "ord", "chr", "divmod", "pow", "hex", "bin", "oct",
})
READING_METHODS = early.METHODS | frozenset({"keys", "values", "items", "format", "isidentifier"})
STORING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft",
                             "remove", "discard", "write", "writelines"})
# Builtins that consume a generator expression at once, where it stands.
CONSUMERS = frozenset({"sum", "any", "all", "min", "max", "sorted", "list", "tuple", "set", "frozenset",
                       "dict"})

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Node types whose insides run later or elsewhere (own_calls does not enter).
_OPAQUE = frozenset({ast.Lambda, *_COMPREHENSIONS, *_FUNCTIONS, ast.ClassDef})
# Node types whose evaluation may write (effects.ProgramEffects.node_writes).
_MAY_WRITE = frozenset({ast.Call, *_FUNCTIONS, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith,
                        *_COMPREHENSIONS, ast.Starred, ast.YieldFrom, ast.Await, ast.Compare,
                        ast.Tuple, ast.List})


def transform(source, manifest, *, fanout=64):
    """Return `(module, helpers)` for `source`.

    `helpers` is `()` when nothing was rewritten (the module is then the plain
    parse), else `(prepare_name, resolve_name, ...)`: the names the caller
    must bind in the program's scope to prepare_call and resolve_call, then
    (when fan-out was planned) to warm_call and the functions of
    `FAN_RUNTIME`, in order --
    `zip(helpers, (prepare_call, resolve_call, warm_call, *FAN_RUNTIME))`.
    warm_call(name, payload, names) is prepare_call for a call no handle can
    reach (in a helper function, a method or a lambda): it starts the call
    for whichever call of the program makes exactly that request first. A program that
    does not parse raises SyntaxError, as compile would.
    """
    if not isinstance(fanout, int) or isinstance(fanout, bool) or fanout < 0:
        raise ValueError(f"fanout must be a non-negative integer, not {fanout!r}")
    tree = ast.parse(source, "<spine>")
    facts = ProgramFacts(tree, manifest)
    if facts.disabled or not facts.tools:
        return tree, ()
    namer = Namer(facts.words)
    plan = Planner(facts, namer, fanout).run(tree)
    if plan.empty:
        return tree, ()
    _apply(tree, plan, namer.resolve)
    return tree, namer.helpers(plan.fan_helper)


# --- Tree walking ------------------------------------------------------------
# ast.walk and ast.iter_child_nodes go through two generator layers per node;
# the transform walks the tree many times, so these flat versions matter (they
# yield the same nodes in the same order, less the context markers).

_AST = ast.AST
_CONTEXT = ast.expr_context


# Per node type, which of its fields can hold an identifier (for Facts.words).
_WORD_FIELDS = {}


# Per node type, the fields that can hold child nodes: the identifier, flag
# and context fields never do (`Constant.value` neither).
_CHILD_FIELDS = {}
# `op`/`ops` hold the operator markers (`Add`, `Eq`...): no analysis here
# walks to them (effects reads `Compare.ops` itself).
_SCALAR_FIELDS = frozenset({"id", "attr", "arg", "name", "asname", "module", "level", "kind",
                            "type_comment", "conversion", "is_async", "simple", "ctx", "op", "ops", "rest", "lineno",
                            "tag"})
# Node types that never have children to walk.
_LEAVES = frozenset({ast.Name, ast.Constant})


# List fields that may hold something else than nodes (names, None keys).
_MIXED_LISTS = frozenset({(ast.Global, "names"), (ast.Nonlocal, "names"), (ast.MatchClass, "kwd_attrs"),
                          (ast.arguments, "kw_defaults"),
                          (ast.Dict, "keys")})
_LIST, _ANY = "list", "any"


def _child_fields(node):
    """(field, how to read it) for the fields of `node`'s type that can hold
    nodes: a list of nodes only (the grammar fixes whether a field is a list,
    so one specimen tells), or anything else (read generically)."""
    cls = node.__class__
    fields = []
    for f in cls._fields:
        if f in _SCALAR_FIELDS or (f == "value" and cls in (ast.Constant, ast.MatchSingleton)):
            continue
        listed = getattr(node, f, None).__class__ is list and (cls, f) not in _MIXED_LISTS
        fields.append((f, _LIST if listed else _ANY))
    fields = _CHILD_FIELDS[cls] = tuple(fields)
    return fields


def _iter_children(node):
    """The direct child nodes of `node`, as ast.iter_child_nodes yields them,
    less the Load/Store/Del markers (no analysis here looks at them; they are
    a third of all nodes)."""
    fields = _CHILD_FIELDS.get(node.__class__)
    if fields is None:
        fields = _child_fields(node)
    children = []
    for name, how in fields:
        value = getattr(node, name, None)
        if how is _LIST:
            if value:
                children += value
        elif value is None:
            continue
        elif value.__class__ is list:
            children += [item for item in value if isinstance(item, _AST)]
        else:
            children.append(value)      # every other field holds a node or None
    return children


def _walk(node):
    """Every node under `node` (itself included), in ast.walk's order."""
    todo = [node]
    index = 0
    leaves = _LEAVES
    while index < len(todo):
        item = todo[index]
        index += 1
        if item.__class__ not in leaves:
            todo += _iter_children(item)
    return todo


_ASYNC_NODES = (ast.Await, ast.AsyncFor, ast.AsyncWith)


def _awaits_at_top_level(tree):
    """True when `await`, `async for` or `async with` occurs outside every
    function body: compiled with top-level await allowed, the module is a coroutine."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, _ASYNC_NODES):
            return True
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (*_FUNCTIONS, ast.Lambda)):
                todo.append(child)
    return False


# --- Name analysis -----------------------------------------------------------

# The node types own_bindings can yield for; a cheap test before the call.
_BINDERS = (ast.Name, *_FUNCTIONS, ast.ClassDef, ast.arg, ast.Import, ast.ImportFrom, ast.Global,
            ast.Nonlocal, ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping)
_BINDER_KINDS = frozenset(_BINDERS)


def own_bindings(node):
    """Names that `node` itself binds (not its children), in any scope."""
    if isinstance(node, ast.Name):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id
    elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            yield alias.asname or alias.name.split(".")[0]
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        yield from node.names
    elif isinstance(node, ast.ExceptHandler):
        if node.name:
            yield node.name
    elif isinstance(node, (ast.MatchAs, ast.MatchStar)):
        if node.name:
            yield node.name
    elif isinstance(node, ast.MatchMapping):
        if node.rest:
            yield node.rest


def same_scope_nodes(node):
    """Every node evaluated in `node`'s own scope when it runs.

    Function and lambda bodies (and their parameters) run later in a scope of
    their own, so they are skipped; their decorators and defaults are kept.
    Comprehensions are kept whole: a walrus inside one binds in this scope,
    and counting their targets too only errs on the safe side.
    """
    stack = [node]
    leaves = _LEAVES
    while stack:
        item = stack.pop()
        yield item
        kind = item.__class__
        if kind in leaves:
            continue
        if kind in _FUNCTIONS:
            stack.extend(item.decorator_list)
            stack.extend(d for d in item.args.defaults)
            stack.extend(d for d in item.args.kw_defaults if d is not None)
        elif kind is ast.Lambda:
            stack.extend(item.args.defaults)
            stack.extend(d for d in item.args.kw_defaults if d is not None)
        else:
            stack += _iter_children(item)


def scope_bindings(node):
    """Names a statement (or expression) may bind in the scope it runs in."""
    names = set()
    for item in same_scope_nodes(node):
        if isinstance(item, _BINDERS):
            names.update(own_bindings(item))
    return names


def names_read(node):
    """Names loaded anywhere in an expression."""
    return {n.id for n in _walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def walrus_targets(node):
    return {n.target.id for n in _walk(node) if isinstance(n, ast.NamedExpr)}


def is_docstring(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


class ProgramFacts:
    """What the whole program tells about names, computed once.

    - `tools`: speculative manifest tools whose name is never bound anywhere in
      the program (any scope, any binding form), so `name(...)` is the tool.
    - `tool_names`: every manifest tool not bound anywhere (speculative or
      not): their calls receive JSON copies and cannot mutate arguments.
    - `bound`: every name bound anywhere.
    - `volatile`: names declared global/nonlocal anywhere: a call to any
      function may rebind them, so calls reading them are left alone.
    - `literal_bound`: names bound exactly once, by `N = [..]`, `N = (..)` or
      `N = range(..)`, so they always hold a list, tuple or range.
    - `disabled`: the program uses a star import, an escape hatch into its
      namespaces (`globals()`, frames...) or top-level `await` (its top level
      is then async code, where a tool call gives an awaitable that a
      resolved value must not replace): leave it all alone.
    - `has_class`: the program defines a class. Class bodies get no prepares
      (a comprehension or lambda there does not see the class's names), and
      any statement may run a method (effects.ProgramEffects.class_writes).
    - `words`: identifiers and strings, to pick names that cannot collide.
    - `effects`: what each call may write, and `reads`: what each speculative
      tool reads (effects.py): a prepare never goes above a call that may
      write what its tool reads.
    """

    def __init__(self, tree, manifest):
        counts = {}
        self.tree = tree
        self.words = set()
        self.volatile = set()
        self.disabled = False
        self.has_class = False
        self.has_comprehension = False
        self.has_walrus = False
        self.has_lambda = False
        self.has_function = False
        has_async = False
        callees = []
        assigns = []
        nodes = _walk(tree)
        words = self.words
        name_kind, constant_kind, attribute_kind, load = ast.Name, ast.Constant, ast.Attribute, ast.Load
        for node in nodes:
            kind = node.__class__
            # The commonest nodes first, for speed; the general path below
            # decides the same for them.
            if kind is name_kind:
                ident = node.id
                words.add(ident)
                if node.ctx.__class__ is not load:
                    counts[ident] = counts.get(ident, 0) + 1
                if ident in REFLECTIVE_NAMES:
                    self.disabled = True
                continue
            if kind is constant_kind:
                if node.value.__class__ is str:
                    words.add(node.value)
                continue
            if kind is attribute_kind:
                words.add(node.attr)
                if is_reflective_attr(node.attr):
                    self.disabled = True
                continue
            if kind is ast.Call:
                if node.func.__class__ is name_kind:
                    callees.append(node)
            elif kind in _COMPREHENSIONS:
                self.has_comprehension = True
            elif kind is ast.NamedExpr:
                self.has_walrus = True
            elif kind is ast.Lambda:
                self.has_lambda = True
            elif kind is ast.FunctionDef:
                self.has_function = True
            elif kind in _ASYNC_NODES:
                has_async = True
            if kind is ast.Assign:
                assigns.append(node)
            if kind in _BINDER_KINDS:
                for name in own_bindings(node):
                    counts[name] = counts.get(name, 0) + 1
            self._note_words(node)
            if kind is ast.Global or kind is ast.Nonlocal:
                self.volatile.update(node.names)
            elif kind is ast.ClassDef:
                self.has_class = True
            elif kind is ast.Import or kind is ast.ImportFrom:
                if any(alias.name == "*" for alias in node.names):
                    self.disabled = True
        if has_async and _awaits_at_top_level(tree):
            self.disabled = True
        self.bound = set(counts)
        self.counts = counts
        names = [spec["name"] for spec in manifest]
        self.tool_names = {n for n in names if n not in self.bound}
        self.tools = {spec["name"] for spec in manifest
                      if spec.get("speculative") is True and spec["name"] not in self.bound}
        self.literal_bound = self._literal_bound(assigns, counts)
        # Lines where a tool is called by name: statements elsewhere have no
        # candidate call (a quick test before walking one).
        self.call_lines = sorted({call.lineno for call in callees if call.func.id in self.tools})
        tool_effects = ToolEffects(manifest)
        self.reads = tool_effects.reads
        self.effects = ProgramEffects(tool_effects)
        # Without reflection (which disables the transform) a program reaches
        # an effectful tool only by its name: if it never says one, nothing
        # it runs writes anything, and the analysis is skipped.
        self.effectful = not self.disabled and bool(self.tools) and bool(tool_effects.writes.keys() & self.words)
        if self.effectful:
            self.effects.add(tree, nodes, _walk)

    def _note_words(self, node):
        fields = _WORD_FIELDS.get(type(node))
        if fields is None:
            fields = _WORD_FIELDS[type(node)] = tuple(
                a for a in ("id", "attr", "arg", "name", "asname", "module", "rest") if a in type(node)._fields)
        for attr in fields:
            value = getattr(node, attr, None)
            if isinstance(value, str):
                self.words.add(value)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            self.words.update(node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.words.add(node.value)

    def _literal_bound(self, assigns, counts):
        found = set()
        for node in assigns:
            if (len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and counts.get(node.targets[0].id) == 1
                    and self.is_sequence_literal(node.value)):
                found.add(node.targets[0].id)
        return found - self.volatile

    def is_sequence_literal(self, node):
        """A list/tuple display or a call of the builtin `range` (shape only)."""
        if isinstance(node, (ast.List, ast.Tuple)):
            return True
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "range" and "range" not in self.bound
                and 1 <= len(node.args) <= 3 and not node.keywords)


class Namer:
    """Fresh names under a prefix no identifier or string of the program contains."""

    def __init__(self, words):
        number = 0
        while any(self._prefix(number) in word for word in words):
            number += 1
        self.base = self._prefix(number)
        self.prepare = self.base + "prepare"
        self.resolve = self.base + "resolve"
        self.fan = self.base + "fan"
        self.warm = self.base + "warm"
        self._count = 0

    @staticmethod
    def _prefix(number):
        return "_spine_" if number == 0 else f"_spine{number}_"

    def helpers(self, fanned):
        """The names the caller binds: to prepare_call and resolve_call, and
        when fan-out was planned, to FAN_RUNTIME's functions in order."""
        names = (self.prepare, self.resolve)
        if fanned:
            names += (self.warm, self.fan, self.fan + "_table", self.fan + "_enumerate", self.fan + "_zip",
                      self.fan + "_warm")
        return names

    def fresh(self, kind):
        self._count += 1
        return f"{self.base}{kind}{self._count}"


# --- Purity ------------------------------------------------------------------

class Purity:
    """Which argument expressions a prepare may evaluate early.

    Exactly those early evaluation (early.py) handles: constants, names,
    displays, operators, comparisons, subscripts, f-strings, and calls of
    the builtins and methods it knows, where each builtin is bound nowhere in
    the program and names no tool (so the name means the builtin wherever
    the call is). What
    is decided here is only the shape; at run time early evaluation applies
    each operation only to plain data, so no operand can run the program's
    code (a generator in `x in gen`, a user `__eq__`), and anything else
    simply starts nothing early.
    """

    def __init__(self, facts):
        self._shadowed = facts.bound | facts.tool_names   # the program's names and its tools'

    def usable(self, name):
        return name not in self._shadowed

    def pure(self, node):
        return early.supported(node, self.usable)


# --- Planning ----------------------------------------------------------------

@dataclass
class Block:
    """A statement list the planner may insert into.

    `parent` is set when a prepare may move out of this block to before the
    statement that owns it (index `owner` in the parent): the block runs at
    most once per run of that statement (if/else branches, try bodies, with
    bodies). Loop bodies, handlers, finally, match cases and function bodies
    have no parent: nothing is hoisted out of them (loops have fan-out).
    `header` holds the owner's expressions evaluated before the block.
    `floor` keeps docstrings and `from __future__` imports first.
    """
    stmts: list
    parent: "Block | None" = None
    owner: int = 0
    header: list = field(default_factory=list)
    floor: int = 0


@dataclass
class Plan:
    inserts: dict = field(default_factory=dict)   # id(list) -> (list, [(index, seq, stmt)])
    rewrites: dict = field(default_factory=dict)  # id(Call) -> handle expression
    loops: list = field(default_factory=list)     # (For, index name)
    loops_at_start: list = field(default_factory=list)   # (statements, For, statements to put before it)
    comprehensions: list = field(default_factory=list)   # (comprehension, fan call, fan name, index name)
    fan_helper: bool = False
    warmed: bool = False          # a lambda's calls are warmed (the tree changed in place)
    floor: int = 0
    seq: int = 0

    @property
    def empty(self):
        return not (self.rewrites or self.loops_at_start or self.comprehensions or self.warmed)

    def insert(self, block, index, stmts, fallbacks):
        """Queue `stmts` before `block.stmts[index]`.

        `fallbacks` are (name, value) pairs: what each handle name the
        statements bind gets if they raise after all (see `_guard`).
        """
        entry = self.inserts.setdefault(id(block.stmts), (block.stmts, []))
        self.seq += 1
        entry[1].append((index, self.seq, stmts, fallbacks))


class Planner:
    """Decides, per candidate call, where its prepare goes (or that it has none).

    Straight-line: walk back from the call's statement while the previous
    statement neither binds nor (probably) mutates a name the arguments read
    nor may write what the tool reads (effects order reads), and out of
    once-blocks whose header does not either.
    Fan-out: a `for` over a list/tuple/range whose body calls a tool with
    arguments reading only the loop variable and loop-invariant names gets
    all iterations prepared before the loop.
    """

    def __init__(self, facts, namer, fanout):
        self.facts = facts
        self.namer = namer
        self.fanout = fanout
        self._own_calls = {}
        self._no_arguments = _arguments([])   # shared: nothing changes it
        self._program_writes = None
        self.purity = Purity(facts)
        self.plan = Plan()
        self.claimed = set()
        self._summaries = {}
        self._indexes = {}
        self._functions = None
        self._tables = None
        self._warmable = {}
        self.conditions = {}      # id(call) -> ((test, holds), ...): the `if` tests it runs under
        self._thunk_of = {}       # id(call) -> (call whose arguments the thunk evaluates, condition)
        self._positions = {}      # id(body) -> {id(statement under it): index in body}

    def run(self, tree):
        floor = 0
        body = tree.body
        if body and is_docstring(body[0]):
            floor = 1
        while (floor < len(body) and isinstance(body[floor], ast.ImportFrom)
               and body[floor].module == "__future__"):
            floor += 1
        self.top = Block(body, floor=floor)
        self.visit_block(self.top)
        self.plan.floor = floor
        return self.plan

    # -- traversal

    def visit_block(self, block):
        for index, stmt in enumerate(block.stmts):
            self.visit_stmt(block, index, stmt)

    def visit_stmt(self, block, index, stmt):
        for call in self.own_calls(stmt):
            self.plan_call(block, index, stmt, call)
        if self.fanout and self.facts.has_comprehension and not isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
            self.plan_comprehensions(stmt)
        if self.fanout and self.facts.has_lambda and not isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
            self.plan_lambdas(stmt)
        if isinstance(stmt, ast.If):
            self.visit_block(Block(stmt.body, block, index, [stmt.test]))
            self.visit_block(Block(stmt.orelse, block, index, [stmt.test]))
        elif isinstance(stmt, ast.With):
            self.visit_block(Block(stmt.body, block, index, list(stmt.items)))
        elif isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            self.visit_block(Block(stmt.body, block, index, []))
            for handler in stmt.handlers:
                self.visit_block(Block(handler.body))
            self.visit_block(Block(stmt.orelse))
            self.visit_block(Block(stmt.finalbody))
        elif isinstance(stmt, ast.For):
            self.plan_fanout(block, index, stmt)
            self.visit_block(Block(stmt.body))
            self.visit_block(Block(stmt.orelse))
        elif isinstance(stmt, ast.While):
            self.plan_worklist(block, stmt)
            self.visit_block(Block(stmt.body))
            self.visit_block(Block(stmt.orelse))
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                self.visit_block(Block(case.body))
        elif isinstance(stmt, ast.FunctionDef):
            body = stmt.body
            self.visit_block(Block(body, floor=1 if body and is_docstring(body[0]) else 0))
        elif isinstance(stmt, ast.ClassDef):
            # The class body itself gets nothing (its scope is not seen by the
            # lambdas and comprehensions generated code uses); its methods are
            # ordinary function bodies.
            for item in stmt.body:
                if isinstance(item, ast.FunctionDef):
                    self.visit_stmt(None, 0, item)
        # AsyncFunctionDef, AsyncFor, AsyncWith: left alone entirely.

    @staticmethod
    def header_exprs(stmt):
        """The parts of a statement evaluated exactly once, before anything else it runs."""
        if isinstance(stmt, ast.If):
            return [stmt.test]
        if isinstance(stmt, ast.For):
            return [stmt.iter]
        if isinstance(stmt, ast.With):
            return [item.context_expr for item in stmt.items]
        if isinstance(stmt, ast.Match):
            return [stmt.subject]
        if isinstance(stmt, ast.AnnAssign):
            # The annotation is left alone: it may be stored unevaluated, as text.
            return [stmt.target] + ([stmt.value] if stmt.value is not None else [])
        if isinstance(stmt, (ast.Expr, ast.Assign, ast.AugAssign, ast.Return,
                             ast.Raise, ast.Assert, ast.Delete)):
            return [stmt]
        return []

    def own_calls(self, stmt):
        """Candidate tool calls evaluated as part of `stmt` itself, in source order.

        Lambdas and comprehensions are not entered (but a comprehension's
        first iterable is): their bodies run later or many times, in a scope of
        their own.
        """
        found = self._own_calls.get(id(stmt))
        if found is not None:
            return found
        found = self._own_calls[id(stmt)] = []
        lines = self.facts.call_lines
        at = bisect.bisect_left(lines, stmt.lineno)
        if at == len(lines) or lines[at] > stmt.end_lineno:
            return found          # no call of a tool on the statement's lines
        tools = self.facts.tools
        found += self.header_calls(stmt, lambda node: node.func.__class__ is ast.Name and node.func.id in tools
                                   and self.is_candidate(node))
        return found

    def header_calls(self, stmt, wanted):
        """The calls `wanted` accepts among those `stmt` evaluates itself, in
        source order. Lambdas and comprehensions are not entered (but a
        comprehension's first iterable is): their bodies run later or many
        times, in a scope of their own."""
        found = []
        stack = list(reversed(self.header_exprs(stmt)))
        while stack:
            node = stack.pop()
            kind = node.__class__
            if kind in _OPAQUE or kind in _LEAVES:
                if kind in _COMPREHENSIONS:
                    # Its first iterable is evaluated here, once, when the
                    # comprehension is; the rest runs in its own scope.
                    stack.append(node.generators[0].iter)
                continue
            if kind is ast.Call and wanted(node):
                found.append(node)
            children = _iter_children(node)
            children.reverse()
            stack += children
        return found

    def is_candidate(self, node):
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in self.facts.tools and not node.args
                and all(kw.arg is not None and kw.arg not in RESOLVE_PARAMS for kw in node.keywords))

    # -- decisions

    def call_reads(self, call):
        """Names the call's arguments read, or None if they are not all pure."""
        if not all(self.purity.pure(kw.value) for kw in call.keywords):
            return None
        reads = set()
        for kw in call.keywords:
            reads |= names_read(kw.value)
        return reads

    def internal_bindings(self, stmt):
        """Names `stmt` may bind before one of its own calls is evaluated.

        A walrus anywhere in the evaluated part, and for `with` the targets of
        earlier items (bound before later items are evaluated).
        """
        names = set()
        if self.facts.has_walrus:
            for expr in self.header_exprs(stmt):
                names |= walrus_targets(expr)
        if isinstance(stmt, ast.With):
            for item in stmt.items:
                if item.optional_vars is not None:
                    names |= scope_bindings(item.optional_vars)
        return names

    def summary(self, node):
        """(touched, slow, writes) of a statement or header, computed once per node.

        `touched`: names it may bind, plus names whose value it may change in
        place -- a heuristic that only affects placement (a prepare above a
        mutation merely guesses wrong): `n.attr` (method calls, attribute
        stores), `n[...] =`/`del n[...]`, and `n` inside the arguments of a
        call of anything but a tool (tools get JSON copies).
        `slow`: it contains a call, so a prepare above it can win time.
        `writes`: the resources it may write (effects.py), calls of the
        program's functions and decorators included; a prepare of a tool
        reading one of them never goes above it.
        """
        cached = self._summaries.get(id(node))
        if cached is not None:
            return cached
        touched, slow, writes = set(), False, NOTHING
        node_writes = self.facts.effects.node_writes
        may_write = _MAY_WRITE if self.facts.effectful else ()
        readers = set()      # ids of `n.method` callees that leave `n` as it is
        name_kind, load = ast.Name, ast.Load
        for item in same_scope_nodes(node):
            kind = item.__class__
            if kind is name_kind:        # the commonest node, decided here alone
                if item.ctx.__class__ is not load:
                    touched.add(item.id)
                continue
            if kind in may_write:
                writes |= node_writes(item)
            if kind in _BINDER_KINDS:
                touched.update(own_bindings(item))
            if kind is ast.Attribute:
                if type(item.value) is ast.Name and id(item) not in readers:
                    touched.add(item.value.id)
            elif kind is ast.Subscript:
                if type(item.ctx) is not ast.Load:
                    touched |= names_read(item.value)
            elif kind is ast.Call:
                slow = True
                if not self.is_tool_call(item):
                    touched |= self.call_exposes(item, readers)
        if self.facts.has_class and self.facts.effectful:
            writes |= self.facts.effects.class_writes
        cached = self._summaries[id(node)] = (frozenset(touched), slow, writes)
        return cached

    def call_exposes(self, call, readers):
        """Names a call of anything but a tool may change in place through its
        arguments (a heuristic for placement only, see `summary`).

        Builtins that only read their arguments (`print(v)`, `len(v)`) and
        methods that store or read them (`out.append({"k": v})`) change none;
        a method that only reads its receiver (`d.get(k)`) leaves the
        receiver too (`readers` collects those callees)."""
        func = call.func
        parts = [*call.args, *(kw.value for kw in call.keywords)]
        if type(func) is ast.Name and func.id in READING_BUILTINS and func.id not in self.facts.bound:
            parts = [p for p in parts if isinstance(p, (ast.Lambda, *_COMPREHENSIONS))]
        elif type(func) is ast.Attribute:
            if func.attr in READING_METHODS:
                readers.add(id(func))
                parts = [p for p in parts if isinstance(p, (ast.Lambda, *_COMPREHENSIONS))]
            elif func.attr in STORING_METHODS:
                parts = [p for p in parts if isinstance(p, (ast.Lambda, *_COMPREHENSIONS))]
        touched = set()
        for part in parts:
            touched |= self.exposed(part)
        return touched

    def is_tool_call(self, node):
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in self.facts.tool_names)

    def exposed(self, node):
        """Names whose value (or a part of it) `node` hands over as its result.

        `f(rows)`, `f([rows])`, `f(rows[0])` expose `rows`; `f(k + 1)`,
        `f(len(rows))` and `f(lookup(key=k))` do not (a fresh value; an inner
        call is summarised on its own). Lambdas and comprehensions expose
        every name they read.
        """
        if isinstance(node, ast.Name):
            return {node.id}
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return set().union(*(self.exposed(e) for e in node.elts))
        if isinstance(node, ast.Dict):
            return set().union(*(self.exposed(v) for v in node.values),
                               *(self.exposed(k) for k in node.keys if k is not None))
        if isinstance(node, (ast.Starred, ast.Subscript, ast.Attribute, ast.NamedExpr)):
            return self.exposed(node.value)
        if isinstance(node, ast.IfExp):
            return self.exposed(node.body) | self.exposed(node.orelse)
        if isinstance(node, ast.BoolOp):
            return set().union(*(self.exposed(v) for v in node.values))
        if isinstance(node, (ast.Lambda, *_COMPREHENSIONS)):
            return names_read(node)
        return set()

    def block_index(self, block):
        """Per block, once: name -> sorted positions of statements touching it,
        the prefix counts of slow statements, and the (position, writes) of
        statements that may write, so a walk back is a lookup."""
        cached = self._indexes.get(id(block.stmts))
        if cached is None:
            touches, slow_before, effects = {}, [0], []
            for position, stmt in enumerate(block.stmts):
                touched, slow, writes = self.summary(stmt)
                for name in touched:
                    touches.setdefault(name, []).append(position)
                slow_before.append(slow_before[-1] + slow)
                if writes:
                    effects.append((position, writes))
            cached = self._indexes[id(block.stmts)] = (touches, slow_before, effects)
        return cached

    def earliest(self, block, index, reads, resources):
        """The (block, index) before which a prepare reading the names `reads`
        of a tool reading `resources` goes.

        Walks back over statements that do not touch `reads` and may not
        write `resources`, and out of once-blocks whose header does neither. It leaves a block (an `if`
        branch, a `try` body) only when that passes more calls -- the only
        thing a prepare can overlap with; otherwise the prepare stays inside,
        where it is wasted only if the block itself is cut short.
        """
        candidates = []
        gain = 0
        while True:
            touches, slow_before, effects = self.block_index(block)
            position = block.floor
            for name in reads:
                where = touches.get(name)
                if where:
                    at = bisect.bisect_left(where, index)  # statements before `index` touching name
                    if at:
                        position = max(position, where[at - 1] + 1)
            for at, writes in reversed(effects):
                if at < index and conflict(resources, writes):
                    position = max(position, at + 1)   # effects order reads
                    break
            gain += slow_before[index] - slow_before[position]
            candidates.append((block, position, gain))
            if position > block.floor or block.parent is None:
                break
            headers = [self.summary(h) for h in block.header]
            if any(touched & reads or conflict(resources, writes) for touched, _, writes in headers):
                break
            gain += any(slow for _, slow, _ in headers)
            block, index = block.parent, block.owner
        best = candidates[-1][2]
        for block, position, won in candidates:
            if won == best:
                return block, position, won

    def thunk(self, call, condition, location, subst=None, helper=None):
        """`prepare('tool', "{'k': <argument text>, ...}", lambda: {'n': n, ...})`.

        The arguments travel as text, evaluated by early evaluation (never as
        code of the program), over the values of the names they read; the
        lambda only reads those names. Builtins the arguments call are not
        passed: early evaluation computes them itself (they are bound nowhere).
        """
        values = [kw.value if subst is None else _substitute(kw.value, subst) for kw in call.keywords]
        payload = "{" + ", ".join(f"{kw.arg!r}: {_text(value)}" for kw, value in zip(call.keywords, values)) + "}"
        if condition is not None:
            # Early evaluation gives None for the whole payload when the
            # test fails: nothing starts.
            condition = condition if subst is None else _substitute(condition, subst)
            payload = f"{payload} if {ast.unparse(condition)} else None"
            values.append(condition)
        callees = set()
        names = set()
        for value in values:
            for node in _walk(value):      # a call before its callee
                kind = node.__class__
                if kind is ast.Name:
                    if node.ctx.__class__ is ast.Load and id(node) not in callees:
                        names.add(node.id)
                elif kind is ast.Call and node.func.__class__ is ast.Name:
                    callees.add(id(node.func))
        ordered = sorted(names)
        load = ast.Load()
        env = _at(ast.Dict(keys=[_at(ast.Constant(n), location) for n in ordered],
                           values=[_at(ast.Name(n, load), location) for n in ordered]), location)
        lam = _at(ast.Lambda(args=self._no_arguments, body=env), location)
        return _at(ast.Call(func=_at(ast.Name(helper or self.namer.prepare, load), location),
                            args=[_at(ast.Constant(call.func.id), location), _at(ast.Constant(payload), location),
                                  lam], keywords=[]), location)

    def plan_call(self, block, index, stmt, call):
        if id(call) in self.claimed:
            return
        reads = self.call_reads(call)
        if reads is None or reads & self.facts.volatile or reads & self.internal_bindings(stmt):
            return
        resources = self.facts.reads[call.func.id]
        if self.writes_beside(stmt, call, resources):
            return
        target, position, gain = self.earliest(block, index, reads, resources)
        if gain == 0 and target.parent is None and target is not self.top and self.alone(stmt, call):
            # In a loop or function body, started right where the call is
            # with nothing to overlap: a prepare would only add a crossing
            # per run (a call in a function still claims, by request, what
            # was warmed for it).
            return
        handle = self.namer.fresh("h")
        prepare = _at(ast.Assign(targets=[_at(ast.Name(handle, ast.Store()), call)],
                                 value=self.thunk(call, None, call)), call)
        self.plan.insert(target, position, [prepare], [(handle, 0)])
        self.plan.rewrites[id(call)] = (call, ast.Name(handle, ast.Load()))
        self.claimed.add(id(call))

    def alone(self, stmt, call):
        """Whether nothing in `stmt`'s own evaluation but `call` may take time:
        its other calls are of builtins or methods that only read or store
        (no tool, no code of the program), and it has no comprehension."""
        bound = self.facts.bound
        for expr in self.header_exprs(stmt):
            for node in same_scope_nodes(expr):
                kind = node.__class__
                if kind in _COMPREHENSIONS or kind is ast.Await:
                    return False
                if kind is not ast.Call or node is call:
                    continue
                func = node.func
                if func.__class__ is ast.Name and func.id in READING_BUILTINS and func.id not in bound:
                    continue
                if func.__class__ is ast.Attribute and (func.attr in READING_METHODS or func.attr in STORING_METHODS):
                    continue
                return False
        return True

    def writes_beside(self, stmt, call, resources):
        """Whether a call in `stmt`'s own expressions that does not enclose
        `call` may write `resources`: it may run before `call` in the
        statement, after any prepare placed above the statement.

        (`put(value=get())` is fine: `put` runs after its argument. A call
        beside it, `f(put(...), get())`, may run first, so `get` stays plain.)
        """
        if not conflict(resources, self.summary(stmt)[2]):
            return False
        node_writes = self.facts.effects.node_writes
        stack = list(self.header_exprs(stmt))
        while stack:
            node = stack.pop()
            if node is call:
                continue
            if isinstance(node, (ast.Lambda, *_FUNCTIONS, ast.ClassDef)):
                continue
            if type(node) in _MAY_WRITE and conflict(resources, node_writes(node)) \
                    and not (type(node) is ast.Call and self.encloses(node, call)):
                return True
            stack.extend(_iter_children(node))
        return False

    @staticmethod
    def encloses(outer, inner):
        return any(node is inner for node in _walk(outer))

    # -- fan-out

    def loop_calls(self, stmts, find=None, tests=()):
        """(stmt, call) for calls that run at most once per iteration of the
        enclosing body (`find`: own_calls, or another finder of calls). The
        `if` tests a call runs under are noted in `conditions`."""
        find = find or self.own_calls
        for stmt in stmts:
            for call in find(stmt):
                if tests:
                    self.conditions[id(call)] = tests
                yield stmt, call
            if isinstance(stmt, ast.If):
                yield from self.loop_calls(stmt.body, find, tests + ((stmt.test, True),))
                yield from self.loop_calls(stmt.orelse, find, tests + ((stmt.test, False),))
            elif isinstance(stmt, ast.With):
                yield from self.loop_calls(stmt.body, find, tests)
            elif isinstance(stmt, ast.Try):
                yield from self.loop_calls(stmt.body, find, tests)

    def iterable_ok(self, node):
        """A loop iterable fan-out may evaluate a second time, in the program
        itself (`items = ITER[:fanout]`): a name bound once to a list, tuple
        or range, or a display / `range(...)` of constants and names only, so
        the second evaluation can run nothing (no operator, no comparison)."""
        if isinstance(node, ast.Name):
            return node.id in self.facts.literal_bound
        if isinstance(node, (ast.List, ast.Tuple)):
            parts = node.elts
        elif self.facts.is_sequence_literal(node):
            parts = node.args
        else:
            return False
        return all(isinstance(p, (ast.Constant, ast.Name)) for p in parts)

    def plan_fanout(self, block, index, loop):
        if self.fanout == 0:
            return
        if (not isinstance(loop.target, ast.Name)
                or GENERATED_BUILTINS & self.facts.bound or not self.iterable_ok(loop.iter)
                or any(True for _ in self.loop_function_calls(loop.body))):
            self.plan_loop_at_start(block, loop)
            return
        var = loop.target.id
        varying = set()
        for stmt in loop.body:
            varying |= scope_bindings(stmt)
        # (mutations in the body are checked per call below)
        if var in varying or var in self.facts.volatile:
            return
        # Every iteration's call is prepared before the loop, so before what
        # the iterable's evaluation and earlier iterations may write.
        writes = self.summary(loop.iter)[2]
        for stmt in loop.body:
            writes |= self.summary(stmt)[2]
        chosen = []
        for stmt, call in self.loop_calls(loop.body):
            reads = self.call_reads(call)
            if reads is None or id(call) in self.claimed:
                continue
            invariant = reads - {var}
            resources = self.facts.reads[call.func.id]
            if (invariant & varying or reads & self.facts.volatile
                    or reads & self.internal_bindings(stmt)
                    or conflict(resources, writes)
                    or any(self.summary(s)[0] & reads for s in loop.body)):
                continue
            touched = set().union(*(self.summary(s)[0] for s in loop.body))
            self._thunk_of[id(call)] = (call, self.condition(self.conditions.get(id(call), ()), None, stmt,
                                                             {var: ()}, varying, touched))
            chosen.append((call, invariant, resources))
        if not chosen:
            # At loop start, names the body binds to pure expressions of
            # the item count too (`url = base + q; fetch(url=url)`).
            self.plan_loop_at_start(block, loop)
            return
        reads = names_read(loop.iter)
        resources = NOTHING
        for _, invariant, tool_reads in chosen:
            reads |= invariant
            resources |= tool_reads
        if reads & self.facts.volatile:
            return
        target, position, _ = self.earliest(block, index, reads, resources)
        items = self.namer.fresh("it")
        counter = self.namer.fresh("i")
        window = ast.Subscript(value=_copy(loop.iter),
                               slice=ast.Slice(lower=None, upper=ast.Constant(self.fanout), step=None), ctx=ast.Load())
        stmts = [ast.Assign(targets=[ast.Name(items, ast.Store())], value=window)]
        fallbacks = []
        for call, _, _ in chosen:
            handles = self.namer.fresh("h")
            key = self.namer.fresh("k")
            table = ast.DictComp(
                key=ast.Name(key, ast.Load()), value=self.thunk(*self._thunk_of[id(call)], call),
                generators=[ast.comprehension(
                    target=ast.Tuple(elts=[ast.Name(key, ast.Store()), ast.Name(var, ast.Store())],
                                     ctx=ast.Store()),
                    iter=ast.Call(func=ast.Name("enumerate", ast.Load()),
                                  args=[ast.Name(items, ast.Load())], keywords=[]),
                    ifs=[], is_async=0)])
            stmts.append(ast.Assign(targets=[ast.Name(handles, ast.Store())], value=table))
            fallbacks.append((handles, {}))
            lookup = ast.Call(func=ast.Attribute(ast.Name(handles, ast.Load()), "get", ast.Load()),
                              args=[ast.Name(counter, ast.Load()), ast.Constant(0)], keywords=[])
            self.plan.rewrites[id(call)] = (call, lookup)
            self.claimed.add(id(call))
        self.plan.insert(target, position, [_locate(s, loop) for s in stmts], fallbacks)
        self.plan.loops.append((loop, counter))


    # -- fan-out decided when the loop starts, from the actual iterable

    def target_paths(self, target):
        """{name: index path into one item} for a loop target made of names and
        (nested) tuples or lists of names, else None (starred, attributes,
        subscripts: no fan-out)."""
        if isinstance(target, ast.Name):
            return {target.id: ()}
        if isinstance(target, (ast.Tuple, ast.List)):
            paths = {}
            for position, element in enumerate(target.elts):
                inner = self.target_paths(element)
                if inner is None:
                    return None
                for name, path in inner.items():
                    if name in paths:
                        return None
                    paths[name] = (position, *path)
            return paths
        return None

    def iteration_calls(self, calls, paths, varying, writes, touched, claim=True, body=None):
        """The calls among `calls` (candidates that run at most once per item)
        whose arguments read only the item and names bound or changed nowhere
        in `varying` / `touched`, of a tool that reads nothing `writes` may
        write. With `body` (the loop's statements), a name the body binds
        once, at its top level, before the call, to a pure expression
        (`url = base + q`) counts as that expression (`forwarded`). Each
        chosen call's thunk evaluates `_thunk_of[id(call)]`: the forwarded
        arguments, and the `if` tests the call runs under when they qualify
        too (a prepare for an item whose test fails would be wasted)."""
        chosen = []
        for stmt, call in calls:
            if claim and id(call) in self.claimed:
                continue
            reads = self.call_reads(call)
            if reads is None:
                continue
            source, subst = call, {}
            if body is not None and reads & varying:
                subst = self.forward(body, stmt, reads & varying)
                if subst:
                    source = _at(ast.Call(func=call.func, args=[], keywords=[
                        ast.keyword(arg=kw.arg, value=_substitute(kw.value, subst)) for kw in call.keywords]), call)
                    reads = self.call_reads(source)
            invariant = reads - paths.keys()
            resources = self.facts.reads[call.func.id]
            if (invariant & varying or reads & self.facts.volatile or invariant & touched
                    or (stmt is not None and reads & self.internal_bindings(stmt))
                    or conflict(resources, writes)):
                continue
            condition = self.condition(self.conditions.get(id(call), ()), body, stmt, paths, varying, touched)
            self._thunk_of[id(call)] = (source, condition)
            chosen.append(call)
        return chosen

    def positions(self, body):
        found = self._positions.get(id(body))
        if found is None:
            found = self._positions[id(body)] = {}
            for index, top in enumerate(body):
                for node in _walk(top):
                    if isinstance(node, ast.stmt):
                        found[id(node)] = index
        return found

    def forward(self, body, stmt, names, depth=3):
        """{name: expression} for `names`, each bound exactly once in `body`,
        by `name = <pure expression>` at its top level before `stmt`'s
        top-level statement; names those expressions read are forwarded
        too (`depth` levels). {} unless every name is."""
        at = self.positions(body).get(id(stmt))
        if at is None:
            return {}
        counts, assigned = {}, {}
        for index, top in enumerate(body):
            for name in scope_bindings(top):
                counts[name] = counts.get(name, 0) + 1
            if (isinstance(top, ast.Assign) and len(top.targets) == 1 and isinstance(top.targets[0], ast.Name)
                    and index < at):
                assigned[top.targets[0].id] = top.value
        subst = {}
        todo = set(names)
        while todo:
            name = todo.pop()
            value = assigned.get(name)
            if counts.get(name) != 1 or value is None or not self.purity.pure(value) or depth <= 0:
                return {}
            subst[name] = value
            inner = names_read(value) & counts.keys() - subst.keys()
            if inner:
                depth -= 1
                todo |= inner
        # Substitute inner names into outer expressions until none is left.
        for _ in range(len(subst)):
            subst = {name: _substitute(value, subst) for name, value in subst.items()}
        return subst

    def condition(self, tests, body, stmt, paths, varying, touched):
        """The conjunction of `tests` (forwarded as arguments are), or None
        when any of them is not pure or reads what the item does not fix."""
        if not tests:
            return None
        parts = []
        for test, holds in tests:
            if not self.purity.pure(test):
                return None
            reads = names_read(test)
            if body is not None and reads & varying:
                subst = self.forward(body, stmt, reads & varying)
                if not subst:
                    return None
                test = _substitute(test, subst)
                reads = names_read(test)
            invariant = reads - paths.keys()
            if invariant & varying or invariant & touched or reads & self.facts.volatile:
                return None
            parts.append(test if holds else ast.UnaryOp(op=ast.Not(), operand=test))
        return parts[0] if len(parts) == 1 else ast.BoolOp(op=ast.And(), values=parts)

    def fan_call(self, iterable, paths, calls, item, warms=()):
        """`fan(make, fanout, kind, *parts)`: evaluates the iterable (its parts)
        once, as the plain program does, and returns (table, enumerate(...)).
        `make(item)` prepares every chosen call for one item."""
        kind, parts = 0, [iterable]
        if (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)
                and iterable.func.id in ("zip", "enumerate") and iterable.func.id not in self.facts.bound
                and iterable.args and not any(isinstance(a, ast.Starred) for a in iterable.args)):
            # `zip(a, b)` and `enumerate(xs, start)`: the parts are evaluated
            # in the same order and handed to the same builtin; what each part
            # holds decides the fan-out.
            args = list(iterable.args)
            keywords = [kw.arg for kw in iterable.keywords]
            if iterable.func.id == "zip" and not keywords:
                kind, parts = 1, args
            elif iterable.func.id == "enumerate" and (
                    (len(args) <= 2 and not keywords)
                    or (len(args) == 1 and keywords == ["start"])):
                kind, parts = 2, args + [kw.value for kw in iterable.keywords]
        subst = {}
        for name, path in paths.items():
            node = ast.Name(item, ast.Load())
            for position in path:
                node = ast.Subscript(value=node, slice=ast.Constant(position), ctx=ast.Load())
            subst[name] = node
        handles = ast.Tuple(elts=[self.thunk(*self._thunk_of.get(id(call), (call, None)), call, subst)
                                  for call in calls]
                            + [self.thunk(*self._thunk_of.get(id(call), (call, None)), call, subst, self.namer.warm)
                               for call in warms], ctx=ast.Load())
        make = ast.Lambda(args=_arguments([item]), body=handles)
        self.plan.fan_helper = True
        return kind, parts, make

    def claim_fanned(self, calls, table_of, counter):
        zeros = ast.Constant((0,) * len(calls))
        for position, call in enumerate(calls):
            table = table_of()
            lookup = ast.Call(func=ast.Attribute(table, "get", ast.Load()),
                              args=[ast.Name(counter, ast.Load()), zeros], keywords=[])
            handle = ast.Subscript(value=lookup, slice=ast.Constant(position), ctx=ast.Load())
            self.plan.rewrites[id(call)] = (call, handle)
            self.claimed.add(id(call))

    def plan_loop_at_start(self, block, loop):
        """`for T in ITER:` whose iterable is known only when the loop starts:
        `for i, T in (f := fan(make, n, kind, ITER))[1]:`, each chosen call
        resolving `f[0].get(i, zeros)[j]`. The iterable is evaluated once,
        where the plain program does; the prepares follow at once and only
        for plain data (see `fan_table`); the body runs in order."""
        paths = self.target_paths(loop.target)
        if paths is None or paths.keys() & self.facts.volatile:
            return
        varying, touched, writes = set(), set(), NOTHING
        for stmt in loop.body:
            varying |= scope_bindings(stmt)
            stmt_touched, _, stmt_writes = self.summary(stmt)
            touched |= stmt_touched
            writes |= stmt_writes
        if paths.keys() & varying:
            return      # the item is rebound in the body: what was prepared would not match
        # An item the body may change in place (passed to a function) is
        # prepared only through warm-ups: they go by request, so a change
        # costs a wasted speculative call, never a handle of other arguments.
        calls = []
        if not paths.keys() & touched:
            calls = self.iteration_calls(self.loop_calls(loop.body), paths, varying, writes, touched,
                                         body=loop.body)
        warms = self.iteration_warms(self.loop_function_calls(loop.body), paths, varying, writes,
                                     touched - paths.keys(), body=loop.body)
        if not calls and not warms:
            return
        table, pairs, counter, item = (self.namer.fresh(kind) for kind in ("t", "p", "i", "v"))
        kind, parts, make = self.fan_call(loop.iter, paths, calls, item, warms)
        # The iterable's parts are evaluated and the iterator made in the
        # program's own frame, as the plain loop does (same errors, no frame
        # added near the recursion limit); only the prepares are a call, guarded.
        where = loop.iter
        before, names = [], []
        for part in parts:
            names.append(self.namer.fresh("x"))
            before.append(ast.Assign(targets=[ast.Name(names[-1], ast.Store())], value=part))
        load = [ast.Name(name, ast.Load()) for name in names]
        enumerate_, zip_ = self.namer.fan + "_enumerate", self.namer.fan + "_zip"
        inner = {0: lambda: load[0],
                 1: lambda: ast.Call(func=ast.Name(zip_, ast.Load()), args=load, keywords=[]),
                 2: lambda: ast.Call(func=ast.Name(enumerate_, ast.Load()), args=load, keywords=[])}[kind]()
        before.append(ast.Assign(targets=[ast.Name(pairs, ast.Store())],
                                 value=ast.Call(func=ast.Name(enumerate_, ast.Load()), args=[inner], keywords=[])))
        prepares = ast.Call(func=ast.Name(self.namer.fan + "_table", ast.Load()),
                            args=[make, ast.Constant(self.fanout), ast.Constant(kind),
                                  *[ast.Name(name, ast.Load()) for name in names]], keywords=[])
        before.append(_guard([_locate(ast.Assign(targets=[ast.Name(table, ast.Store())], value=prepares), where)],
                             [(table, {})]))
        before = [_locate(stmt, where) for stmt in before]
        self.claim_fanned(calls, lambda: ast.Name(table, ast.Load()), counter)
        loop.iter = _locate(ast.Name(pairs, ast.Load()), where)
        loop.target = _locate(ast.Tuple(elts=[ast.Name(counter, ast.Store()), loop.target], ctx=ast.Store()),
                              loop.target)
        self.plan.loops_at_start.append((block.stmts, loop, before))

    # -- calls reached through a function of the program: warmed by request

    def functions(self):
        """The program's functions a call may reach, by callee: ("name", f)
        for a module-level `def f` bound once, ("attr", m) for a method `m`
        that exactly one class defines (what `obj.m(...)` most likely runs).
        Undecorated, not generators. Only a guess: a warm-up goes by request,
        so one that no call makes costs a speculative call, never meaning."""
        if self._functions is None:
            found, methods = {}, {}
            counts, volatile = self.facts.counts, self.facts.volatile
            for stmt in self.facts.tree.body:
                if (isinstance(stmt, ast.FunctionDef) and counts.get(stmt.name) == 1
                        and stmt.name not in volatile and self.plain_function(stmt)):
                    found[("name", stmt.name)] = stmt
                elif isinstance(stmt, ast.ClassDef):
                    for item in stmt.body:
                        if isinstance(item, _FUNCTIONS):
                            methods.setdefault(item.name, []).append(item)
            for name, defs in methods.items():
                if len(defs) == 1 and isinstance(defs[0], ast.FunctionDef) and self.plain_function(defs[0]) \
                        and (defs[0].args.posonlyargs or defs[0].args.args):
                    found[("attr", name)] = defs[0]
            self._functions = found
        return self._functions

    @staticmethod
    def plain_function(fdef):
        return not fdef.decorator_list and not is_generator(fdef)

    def callee_def(self, call):
        """(the function `call` most likely runs, parameters its call skips: 1 for a method's self)."""
        func = call.func
        if not self.facts.has_function:
            return None, 0
        if func.__class__ is ast.Name:
            return self.functions().get(("name", func.id)), 0
        if func.__class__ is ast.Attribute:
            return self.functions().get(("attr", func.attr)), 1
        return None, 0

    def function_calls(self, stmt):
        """Calls of the program's functions evaluated as part of `stmt` itself."""
        if not (self.facts.has_function or self.facts.has_lambda):
            return []
        return self.header_calls(stmt, self.is_site)

    def loop_function_calls(self, stmts):
        """(stmt, call) for calls of functions that run at most once per iteration."""
        return self.loop_calls(stmts, self.function_calls)

    def warmable(self, fdef):
        """[(tool call, parameters its arguments read)]: the calls a run of
        `fdef` makes at most once, whose arguments read only parameters the
        body never rebinds (and builtins)."""
        cached = self._warmable.get(id(fdef))
        if cached is not None:
            return cached
        args = fdef.args
        params = {p.arg for p in args.posonlyargs + args.args + args.kwonlyargs}
        varying = set()
        for stmt in fdef.body:
            varying |= scope_bindings(stmt)
        found = self._warmable[id(fdef)] = []     # a recursive call finds nothing more
        # Its own calls, then those of the functions it calls (`def answer(q):
        # return research(q)`), with their parameters replaced by what it
        # passes them.
        candidates = list(self.loop_calls(fdef.body))
        for stmt, site in list(self.loop_function_calls(fdef.body)):
            candidates += [(stmt, call) for call in self.warm_calls(site)]
        for stmt, call in candidates:
            reads = self.call_reads(call)
            # A parameter the body changes in place (handed to a function
            # that may) still counts: a warm-up that no longer matches costs
            # a speculative call, never meaning; one it rebinds does not.
            if reads is None or reads & varying or (reads - params) & self.facts.bound \
                    or reads & self.internal_bindings(stmt):
                continue
            found.append((call, reads & params))
        return found

    def is_site(self, call):
        """A call of a function (or dispatch-table lambda) of the program."""
        return self.callee_def(call)[0] is not None or self.dispatch(call) is not None

    def dispatch(self, call):
        """[(key, lambda)] when `call` is `TABLE[k](arg)` and TABLE is a name
        bound once, at module level, to a dict display of constant keys and
        one-parameter lambdas (a plan-and-execute dispatch table), else None."""
        func = call.func
        if not (self.facts.has_lambda and func.__class__ is ast.Subscript
                and func.value.__class__ is ast.Name and len(call.args) == 1 and not call.keywords
                and call.args[0].__class__ is not ast.Starred):
            return None
        name = func.value.id
        if self.facts.counts.get(name) != 1 or name in self.facts.volatile:
            return None
        tables = self._dispatch_tables()
        return tables.get(name)

    def _dispatch_tables(self):
        if self._tables is None:
            self._tables = {}
            for stmt in self.facts.tree.body:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Dict)):
                    entries = list(zip(stmt.value.keys, stmt.value.values))
                    if entries and all(isinstance(k, ast.Constant) and isinstance(v, ast.Lambda)
                                       and len(v.args.args) == 1 and not v.args.posonlyargs
                                       and not v.args.vararg and not v.args.kwonlyargs and not v.args.kwarg
                                       for k, v in entries):
                        self._tables[stmt.targets[0].id] = entries
        return self._tables

    def dispatch_calls(self, site, entries):
        """Per entry, the tool calls of its lambda with the parameter replaced
        by the site's argument, each under the test `key == k` (the entry
        the call picks): a warm-up only for the lambda an item selects."""
        warms = []
        for key, function in entries:
            param = function.args.args[0].arg
            stack = [function.body]
            while stack:
                node = stack.pop()
                if isinstance(node, (ast.Lambda, *_COMPREHENSIONS)):
                    continue
                if self.is_candidate(node):
                    reads = self.call_reads(node)
                    if reads is not None and not (reads - {param}) & self.facts.bound:
                        subst = {param: site.args[0]}
                        keywords = [ast.keyword(arg=kw.arg, value=_substitute(kw.value, subst))
                                    for kw in node.keywords]
                        warm = _at(ast.Call(func=node.func, args=[], keywords=keywords), site)
                        test = _at(ast.Compare(left=_copy(site.func.slice), ops=[ast.Eq()],
                                               comparators=[_copy(key)]), site)
                        self.conditions[id(warm)] = self.conditions.get(id(site), ()) + ((test, True),)
                        warms.append(warm)
                stack.extend(_iter_children(node))
        return warms

    def warm_calls(self, site):
        """The warmable calls of the function `site` calls, each as a call of
        the tool whose arguments are the site's (parameters replaced by the
        argument expressions they receive, or a constant default)."""
        entries = self.dispatch(site)
        if entries is not None:
            return self.dispatch_calls(site, entries)
        fdef, skip = self.callee_def(site)
        if fdef is None or any(isinstance(a, ast.Starred) for a in site.args) \
                or any(kw.arg is None for kw in site.keywords):
            return []
        calls = self.warmable(fdef)
        if not calls:
            return []
        args = fdef.args
        positional = [p.arg for p in args.posonlyargs + args.args]
        if len(site.args) > len(positional) - skip:
            return []
        given = dict(zip(positional[skip:], site.args))
        by_keyword = {p.arg for p in args.args + args.kwonlyargs}
        for kw in site.keywords:
            if kw.arg not in by_keyword or kw.arg in given or kw.arg in positional[:skip]:
                return []
            given[kw.arg] = kw.value
        defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        warms = []
        for call, params in calls:
            subst = {}
            for param in params:
                value = given.get(param, defaults.get(param) if param not in positional[:skip] else None)
                if value is None or (param not in given and not isinstance(value, ast.Constant)):
                    break
                subst[param] = value
            else:
                keywords = [ast.keyword(arg=kw.arg, value=_substitute(kw.value, subst)) for kw in call.keywords]
                warms.append(_at(ast.Call(func=call.func, args=[], keywords=keywords), site))
        return warms

    def iteration_warms(self, sites, paths, varying, writes, touched, body=None):
        """The warm-ups, per item, of the tool calls functions called at most
        once per item make (`research(q)`, `agent.look_up(q)`), on the same
        terms as `iteration_calls`."""
        warms = []
        for stmt, site in sites:
            candidates = []
            for call in self.warm_calls(site):
                if id(site) in self.conditions and id(call) not in self.conditions:
                    self.conditions[id(call)] = self.conditions[id(site)]
                candidates.append((stmt, call))
            warms += self.iteration_calls(candidates, paths, varying, writes, touched, claim=False, body=body)
        return warms

    # -- while loops working through a list

    def plan_worklist(self, block, loop):
        """`while todo: item = todo.pop(0) ... tool(k=item)` (or `todo.pop()`,
        or `item = todo[i]`): the items the loop will take are the list's
        when it starts, so the calls each iteration makes with its item are
        warmed for every element of the list, before the loop, in any order
        (warm-ups go by request). Items the body adds later are not warmed;
        an item the loop never reaches leaves a warm-up unclaimed. A loop
        whose next item comes from a tool's result (pagination) has no such
        statement: it is left alone."""
        if self.fanout == 0 or block is None:
            return
        source = None
        for stmt in loop.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)):
                value = stmt.value
                if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                        and value.func.attr == "pop" and isinstance(value.func.value, ast.Name)
                        and len(value.args) <= 1 and not value.keywords):
                    source = (stmt.targets[0].id, value.func.value.id)
                elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) \
                        and not isinstance(value.slice, ast.Slice):
                    source = (stmt.targets[0].id, value.value.id)
                if source:
                    break
        if source is None:
            return
        var, items = source
        varying, touched, writes = set(), set(), self.summary(loop.test)[2]
        for stmt in loop.body:
            varying |= scope_bindings(stmt)
            stmt_touched, _, stmt_writes = self.summary(stmt)
            touched |= stmt_touched
            writes |= stmt_writes
        if items in varying or items in self.facts.volatile or var in self.facts.volatile:
            return
        varying.discard(var)
        counts = sum(1 for stmt in loop.body for name in scope_bindings(stmt) if name == var)
        if counts != 1:
            return
        paths = {var: ()}
        candidates = [(stmt, call) for stmt, call in self.loop_calls(loop.body) if id(call) not in self.claimed]
        warms = self.iteration_calls(candidates, paths, varying, writes, touched - {var}, claim=False,
                                     body=loop.body)
        warms += self.iteration_warms(self.loop_function_calls(loop.body), paths, varying, writes,
                                      touched - {var}, body=loop.body)
        if not warms:
            return
        item = self.namer.fresh("v")
        _, _, make = self.fan_call(ast.Name(item, ast.Load()), paths, [], item, warms)
        warm = ast.Expr(ast.Call(func=ast.Name(self.namer.fan + "_warm", ast.Load()),
                                 args=[make, ast.Constant(self.fanout), ast.Name(items, ast.Load())],
                                 keywords=[]))
        index = next(i for i, stmt in enumerate(block.stmts) if stmt is loop)
        self.plan.insert(block, index, [_locate(warm, loop)], [])
        self.plan.warmed = True

    # -- lambdas applied to every item at once

    def plan_lambdas(self, stmt):
        """`sorted(xs, key=lambda x: tool(k=x))`, `min`/`max` likewise,
        `map(lambda x: ..., xs)` and `filter(...)`: the lambda runs for every
        item of xs, so its calls (or those of the functions it calls) are
        warmed for each item once xs is evaluated, where it stands:
        `sorted(fan_warm(make, fanout, xs), key=...)`."""
        stack = [(node, None) for node in self.header_exprs(stmt)]
        while stack:
            node, parent = stack.pop()
            if isinstance(node, _COMPREHENSIONS):
                stack.append((node.generators[0].iter, node.generators[0]))   # evaluated here
                continue
            if isinstance(node, (ast.Lambda, *_FUNCTIONS, ast.ClassDef)):
                continue
            if node.__class__ is ast.Call and node.func.__class__ is ast.Name \
                    and node.func.id not in self.facts.bound:
                self.plan_lambda_call(node, parent)
            for child in _iter_children(node):
                stack.append((child, node))

    def plan_lambda_call(self, call, parent):
        name = call.func.id
        if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
            return
        lazy = False
        if name in ("sorted", "min", "max") and len(call.args) == 1:
            key = [kw.value for kw in call.keywords if kw.arg == "key"]
            if len(key) != 1:
                return
            function, position = key[0], 0
        elif name in ("map", "filter") and len(call.args) == 2 and not call.keywords:
            function, position = call.args[0], 1
            lazy = not self.consumed_at_once(call, parent)
        else:
            return
        if not isinstance(function, ast.Lambda):
            return
        args = function.args
        if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults \
                or len(args.args) != 1:
            return
        paths = {args.args[0].arg: ()}
        body = function.body
        candidates, sites = self.expression_calls(body)
        varying = walrus_targets(body)
        touched, _, writes = self.summary(body)
        if lazy:
            writes = self.program_writes()      # consumed later, maybe after a write
        warms = [c for c in self.iteration_calls(candidates, paths, varying, writes, touched - paths.keys(),
                                                 claim=False)]
        warms += self.iteration_warms(sites, paths, varying, writes, touched - paths.keys())
        if not warms:
            return
        item = self.namer.fresh("v")
        _, _, make = self.fan_call(ast.Name(item, ast.Load()), paths, [], item, warms)
        iterable = call.args[position]
        call.args[position] = _locate(ast.Call(func=ast.Name(self.namer.fan + "_warm", ast.Load()),
                                               args=[make, ast.Constant(self.fanout), iterable], keywords=[]),
                                      iterable)
        self.plan.warmed = True

    def expression_calls(self, expr):
        """([(None, tool call)], [(None, call of a program function)]) that
        evaluating `expr` makes itself (not in lambdas, comprehensions or
        functions it defines), in evaluation order."""
        calls, sites = [], []
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Lambda, *_COMPREHENSIONS, *_FUNCTIONS)):
                continue
            if self.is_candidate(node):
                calls.append((None, node))
            elif node.__class__ is ast.Call and self.is_site(node):
                sites.append((None, node))
            stack.extend(reversed(_iter_children(node)))
        return calls, sites

    def plan_comprehensions(self, stmt):
        """Fan out the comprehensions and generator expressions `stmt`
        evaluates in its own scope (not in lambdas or functions)."""
        stack = [(node, None) for node in self.header_exprs(stmt)]
        while stack:
            node, parent = stack.pop()
            if isinstance(node, (ast.Lambda, *_FUNCTIONS, ast.ClassDef)):
                continue
            if isinstance(node, _COMPREHENSIONS):
                self.plan_comprehension(node, parent)
            for child in _iter_children(node):
                stack.append((child, node))

    def consumed_at_once(self, genexp, parent):
        """A generator expression that a builtin consumes where it stands
        (`sum(f(x=x) for x in xs)`), so its items run before anything after."""
        if not (isinstance(parent, ast.Call) and parent.args == [genexp] and not parent.keywords):
            return False
        func = parent.func
        if isinstance(func, ast.Name):
            return func.id in CONSUMERS and func.id not in self.facts.bound
        return isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Constant)

    def program_writes(self):
        if self._program_writes is None:
            self._program_writes = NOTHING
            if self.facts.effectful:
                self._program_writes = self.facts.effects.writes_within(self.facts.tree)
                if self.facts.has_class:
                    self._program_writes |= self.facts.effects.class_writes
        return self._program_writes

    def plan_comprehension(self, comp, parent):
        if len(comp.generators) != 1 or comp.generators[0].is_async:
            return
        generator = comp.generators[0]
        paths = self.target_paths(generator.target)
        if paths is None or paths.keys() & self.facts.volatile:
            return
        parts = [comp.key, comp.value] if isinstance(comp, ast.DictComp) else [comp.elt]
        parts += generator.ifs
        calls, sites, writes, varying = [], [], NOTHING, set()
        for part in parts:
            varying |= walrus_targets(part)
            writes |= self.summary(part)[2]
            part_calls, part_sites = self.expression_calls(part)
            calls += part_calls
            sites += part_sites
        if isinstance(comp, ast.GeneratorExp) and not self.consumed_at_once(comp, parent):
            # Consumed later, maybe after a write: only when nothing writes.
            writes = self.program_writes()
        touched = set()
        for part in parts:
            touched |= self.summary(part)[0]
        if paths.keys() & varying:
            return
        warms = self.iteration_warms(sites, paths, varying, writes, touched - paths.keys())
        if paths.keys() & touched:
            calls = []          # see plan_loop_at_start
        calls = self.iteration_calls(calls, paths, varying, writes, touched)
        if not calls and not warms:
            return
        fan, counter, item = self.namer.fresh("f"), self.namer.fresh("i"), self.namer.fresh("v")
        kind, parts, make = self.fan_call(generator.iter, paths, calls, item, warms)
        header = ast.Call(func=ast.Name(self.namer.fan, ast.Load()),
                          args=[make, ast.Constant(self.fanout), ast.Constant(kind), *parts], keywords=[])
        self.claim_fanned(
            calls, lambda: ast.Subscript(value=ast.Name(fan, ast.Load()), slice=ast.Constant(0), ctx=ast.Load()),
            counter)
        self.plan.comprehensions.append((comp, header, fan, counter))


def _arguments(names):
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


# The runtime half of fan-out at loop start: real functions of this module
# (compiled once, before any program runs), bound in the program's scope
# under the namer's names (`FAN_RUNTIME`, after prepare and resolve). They
# evaluate nothing of the program: the parts arrive evaluated, the loop's
# iterator is made at once (so a non-iterable fails where the plain program
# fails, with the same error), and items are read ahead only from exact
# lists, tuples, ranges, strings, dicts and dict views, whose iteration and
# slicing run no program code (`is`, never `==` or `in`, on types: a
# metaclass could define those). Anything else -- a generator, a map, a user
# object -- gets no prepares: reading it ahead would consume it or run its
# code. Builtins are bound as defaults when this module loads, so nothing a
# program rebinds reaches them.
_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))


def fan_table(make, limit, kind, *parts, enumerate=enumerate, zip=zip, type=type, len=len,
              list=list, tuple=tuple, range=range, str=str, dict=dict, Exception=Exception, views=_VIEWS):
    """{index: make(item)} for the first `limit` items of a plain iterable."""
    table = {}
    try:
        if kind == 2 and len(parts) == 2 and type(parts[1]) is not int:
            return table
        snapshots = []
        for part in (parts[:1] if kind == 2 else parts):
            t = type(part)
            if t is list or t is tuple or t is range or t is str:
                snapshots.append(part[:limit])
            elif t is dict or t is views[0] or t is views[1] or t is views[2]:
                snapshot = []
                for element in part:
                    if len(snapshot) >= limit:
                        break
                    snapshot.append(element)
                snapshots.append(snapshot)
            else:
                return table
        if kind == 1:
            items = zip(*snapshots)
        elif kind == 2:
            items = enumerate(snapshots[0], *parts[1:])
        else:
            items = snapshots[0]
        for index, element in enumerate(items):
            if index >= limit:
                break
            table[index] = make(element)
    except Exception:
        pass
    return table


def fan(make, limit, kind, *parts, enumerate=enumerate, zip=zip, table=fan_table, Exception=Exception):
    """(prepared table, enumerate(the iterator)) for a comprehension's fan-out."""
    if kind == 1:
        pairs = enumerate(zip(*parts))
    elif kind == 2:
        pairs = enumerate(enumerate(*parts))
    else:
        pairs = enumerate(parts[0])
    try:
        return table(make, limit, kind, *parts), pairs
    except Exception:
        return {}, pairs


def fan_warm(make, limit, part, table=fan_table, Exception=Exception):
    """`part` itself, once the calls of its first `limit` items are warmed
    (`sorted(xs, key=lambda x: ...)`: xs is evaluated where it stands)."""
    try:
        table(make, limit, 0, part)
    except Exception:
        pass
    return part


# In the order of `Namer.helpers()` after prepare, resolve and warm.
FAN_RUNTIME = (fan, fan_table, enumerate, zip, fan_warm)


# --- Rewriting ---------------------------------------------------------------

def _locate(node, origin):
    """Give `node` and its new children the position of `origin`; returns `node`.

    Generated code takes the line of the user's call (or loop), so nothing the
    program can observe points at a line it does not have. Nodes that already
    have a position (the user's own, copied into a thunk) keep it, and so do
    their children, which is why the walk stops there.
    """
    position = (origin.lineno, origin.col_offset,
                getattr(origin, "end_lineno", None), getattr(origin, "end_col_offset", None))
    stack = [node]
    while stack:
        item = stack.pop()
        positioned = _POSITIONED.get(item.__class__)
        if positioned is None:
            positioned = _POSITIONED[item.__class__] = "lineno" in item._attributes
        if positioned:
            if getattr(item, "lineno", None) is not None:
                continue
            item.lineno, item.col_offset, item.end_lineno, item.end_col_offset = position
        stack += _iter_children(item)
    return node


_POSITIONED = {}   # node type -> whether it carries a position


def _text(node):
    """Source text of an expression (what ast.unparse gives; names and
    constants that repr exactly, directly, for speed)."""
    kind = node.__class__
    if kind is ast.Name:
        return node.id
    if kind is ast.Constant:
        value = node.value
        if value.__class__ in (int, str, bool) or value is None or (
                value.__class__ is float and value - value == 0):
            return repr(value)
    return ast.unparse(node)


def _at(node, origin):
    """Give the single new node `node` (no new children) `origin`'s position."""
    node.lineno, node.col_offset = origin.lineno, origin.col_offset
    node.end_lineno, node.end_col_offset = origin.end_lineno, origin.end_col_offset
    return node


def _substitute(node, subst):
    """A copy of `node` with the loads of the names in `subst` replaced by
    (copies of) their expressions."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in subst:
        return _copy(subst[node.id])
    if not isinstance(node, ast.AST):
        return node
    new = type(node)(**{name: ([_substitute(v, subst) for v in getattr(node, name)]
                               if isinstance(getattr(node, name), list) else _substitute(getattr(node, name), subst))
                        for name in node._fields if hasattr(node, name)})
    for name in node._attributes:
        if hasattr(node, name):
            setattr(new, name, getattr(node, name))
    return new


def _copy(node):
    """A copy of an expression tree (positions included); faster than deepcopy."""
    if isinstance(node, list):
        return [_copy(item) for item in node]
    if not isinstance(node, ast.AST):
        return node
    new = type(node)(**{name: _copy(getattr(node, name)) for name in node._fields if hasattr(node, name)})
    for name in node._attributes:
        if hasattr(node, name):
            setattr(new, name, getattr(node, name))
    return new


def _rewrite_call(call, resolve, handle):
    """`tool(k=v)` -> `resolve(handle, 'tool', k=v)`, in place.

    The Call node itself is kept, so its position and its place in the tree
    stay the user's; only the callee and the leading arguments change.
    """
    name = call.func.id
    call.func = _at(ast.Name(resolve, ast.Load()), call.func)
    call.args = [_locate(handle, call) if handle.__class__ is not ast.Name else _at(handle, call),
                 _at(ast.Constant(name), call)]


def _apply(tree, plan, resolve):
    """Rewrite the planned calls and loops, then insert the prepare statements."""
    for call, handle in plan.rewrites.values():
        _rewrite_call(call, resolve, handle)
    for comp, header, fan, counter in plan.comprehensions:
        generator = comp.generators[0]
        start = ast.comprehension(target=ast.Name(fan, ast.Store()), iter=ast.List([header], ast.Load()),
                                  ifs=[], is_async=0)
        pairs = ast.Subscript(value=ast.Name(fan, ast.Load()), slice=ast.Constant(1), ctx=ast.Load())
        items = ast.comprehension(
            target=ast.Tuple(elts=[ast.Name(counter, ast.Store()), generator.target], ctx=ast.Store()),
            iter=pairs, ifs=generator.ifs, is_async=0)
        _locate(start, generator.iter)
        _locate(items, generator.iter)
        comp.generators = [start, items]
    for loop, counter in plan.loops:
        original = loop.iter
        loop.iter = _locate(ast.Call(func=ast.Name("enumerate", ast.Load()), args=[original], keywords=[]),
                            original)
        loop.target = _locate(ast.Tuple(elts=[ast.Name(counter, ast.Store()), loop.target], ctx=ast.Store()),
                              loop.target)
    for stmts, inserts in plan.inserts.values():
        groups = {}
        for index, seq, body, fallbacks in sorted(inserts, key=lambda e: (e[0], e[1])):
            group = groups.setdefault(index, ([], []))
            group[0].extend(body)
            group[1].extend(fallbacks)
        result = []
        for index, stmt in enumerate(stmts + [None]):
            if index in groups:
                result.append(_guard(*groups[index]))
            if stmt is not None:
                result.append(stmt)
        stmts[:] = result
    for stmts, loop, before in plan.loops_at_start:
        at = next(index for index, stmt in enumerate(stmts) if stmt is loop)
        stmts[at:at] = before


def _guard(body, fallbacks):
    """`try: <prepares> except Exception: <handles> = 0 / {}`.

    prepare_call already swallows argument errors; the guard covers what can
    still fail on the way in (the host refusing, MemoryError, RecursionError
    when the program runs near its recursion limit -- a prepare adds frames
    where the plain program may add none), so a prepare never raises where
    the plain program does not.
    """
    origin = body[0]
    zeros = [ast.Name(name, ast.Store()) for name, value in fallbacks if value == 0]
    handler = []
    if zeros:
        handler.append(ast.Assign(targets=zeros, value=ast.Constant(0)))
    for name, value in fallbacks:
        if value != 0:
            handler.append(ast.Assign(targets=[ast.Name(name, ast.Store())],
                                      value=ast.Dict(keys=[], values=[])))
    if not handler:
        handler.append(ast.Pass())
    guard = ast.Try(body=body, handlers=[ast.ExceptHandler(
        type=ast.Name("Exception", ast.Load()), name=None, body=handler)], orelse=[], finalbody=[])
    return _locate(guard, origin)
