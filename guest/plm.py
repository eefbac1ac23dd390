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
from effects import NOTHING, ProgramEffects, ToolEffects, conflict
from policy import REFLECTIVE_NAMES, is_reflective_attr

__all__ = ["transform"]

# resolve_call(handle, name, **args): a tool keyword with one of these names
# would collide with resolve_call's own parameters, so such calls stay plain.
RESOLVE_PARAMS = frozenset({"handle", "name"})

# Builtins the generated fan-out code relies on.
GENERATED_BUILTINS = frozenset({"enumerate", "Exception"})

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Node types whose evaluation may write (effects.ProgramEffects.node_writes).
_MAY_WRITE = frozenset({ast.Call, *_FUNCTIONS, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith,
                        *_COMPREHENSIONS, ast.Starred, ast.YieldFrom, ast.Await, ast.Compare,
                        ast.Tuple, ast.List})


def transform(source, manifest, *, fanout=64):
    """Return `(module, helpers)` for `source`.

    `helpers` is `()` when nothing was rewritten (the module is then the plain
    parse), else `(prepare_name, resolve_name)`: the names the caller must bind
    to prepare_call and resolve_call in the program's scope. A program that
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
    return tree, (namer.prepare, namer.resolve)


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
_SCALAR_FIELDS = frozenset({"id", "attr", "arg", "name", "asname", "module", "level", "kind",
                            "type_comment", "conversion", "is_async", "simple", "ctx"})


def _child_fields(cls):
    fields = _CHILD_FIELDS[cls] = tuple(
        f for f in cls._fields if f not in _SCALAR_FIELDS and not (cls is ast.Constant and f == "value"))
    return fields


def _iter_children(node):
    """The direct child nodes of `node`, as ast.iter_child_nodes yields them,
    less the Load/Store/Del markers (no analysis here looks at them; they are
    a third of all nodes)."""
    children = []
    fields = _CHILD_FIELDS.get(type(node))
    if fields is None:
        fields = _child_fields(type(node))
    for name in fields:
        value = getattr(node, name, None)
        if type(value) is list:
            children.extend(item for item in value if isinstance(item, _AST))
        elif isinstance(value, _AST):
            children.append(value)
    return children


def _walk(node):
    """Every node under `node` (itself included), in ast.walk's order."""
    todo = [node]
    index = 0
    while index < len(todo):
        todo.extend(_iter_children(todo[index]))
        index += 1
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
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, _FUNCTIONS):
            stack.extend(item.decorator_list)
            stack.extend(d for d in item.args.defaults)
            stack.extend(d for d in item.args.kw_defaults if d is not None)
        elif isinstance(item, ast.Lambda):
            stack.extend(item.args.defaults)
            stack.extend(d for d in item.args.kw_defaults if d is not None)
        else:
            stack.extend(_iter_children(item))


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
    - `disabled`: the program uses a class, a star import, an escape hatch
      into its namespaces (`globals()`, frames...) or top-level `await` (its
      top level is then async code, where a tool call gives an awaitable that
      a resolved value must not replace): leave it all alone.
    - `words`: identifiers and strings, to pick names that cannot collide.
    - `effects`: what each call may write, and `reads`: what each speculative
      tool reads (effects.py): a prepare never goes above a call that may
      write what its tool reads.
    """

    def __init__(self, tree, manifest):
        counts = {}
        self.words = set()
        self.volatile = set()
        self.disabled = False
        assigns = []
        nodes = _walk(tree)
        for node in nodes:
            if isinstance(node, ast.Assign):
                assigns.append(node)
            if isinstance(node, _BINDERS):
                for name in own_bindings(node):
                    counts[name] = counts.get(name, 0) + 1
            self._note_words(node)
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                self.volatile.update(node.names)
            elif isinstance(node, ast.ClassDef):
                self.disabled = True
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                if any(alias.name == "*" for alias in node.names):
                    self.disabled = True
            elif isinstance(node, ast.Name) and node.id in REFLECTIVE_NAMES:
                self.disabled = True
            elif isinstance(node, ast.Attribute) and is_reflective_attr(node.attr):
                self.disabled = True
        if _awaits_at_top_level(tree):
            self.disabled = True
        self.bound = set(counts)
        names = [spec["name"] for spec in manifest]
        self.tool_names = {n for n in names if n not in self.bound}
        self.tools = {spec["name"] for spec in manifest
                      if spec.get("speculative") is True and spec["name"] not in self.bound}
        self.literal_bound = self._literal_bound(assigns, counts)
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
        self._count = 0

    @staticmethod
    def _prefix(number):
        return "_spine_" if number == 0 else f"_spine{number}_"

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
    seq: int = 0

    @property
    def empty(self):
        return not self.rewrites

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
        self.purity = Purity(facts)
        self.plan = Plan()
        self.claimed = set()
        self._summaries = {}
        self._indexes = {}

    def run(self, tree):
        floor = 0
        body = tree.body
        if body and is_docstring(body[0]):
            floor = 1
        while (floor < len(body) and isinstance(body[floor], ast.ImportFrom)
               and body[floor].module == "__future__"):
            floor += 1
        self.visit_block(Block(body, floor=floor))
        return self.plan

    # -- traversal

    def visit_block(self, block):
        for index, stmt in enumerate(block.stmts):
            self.visit_stmt(block, index, stmt)

    def visit_stmt(self, block, index, stmt):
        for call in self.own_calls(stmt):
            self.plan_call(block, index, stmt, call)
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
            self.visit_block(Block(stmt.body))
            self.visit_block(Block(stmt.orelse))
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                self.visit_block(Block(case.body))
        elif isinstance(stmt, ast.FunctionDef):
            body = stmt.body
            self.visit_block(Block(body, floor=1 if body and is_docstring(body[0]) else 0))
        # AsyncFunctionDef, AsyncFor, AsyncWith: left alone entirely.
        # ClassDef: a program with a class is never transformed.

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

        Lambdas and comprehensions are not entered: their bodies run later or
        many times, in a scope of their own.
        """
        found = []
        stack = list(reversed(self.header_exprs(stmt)))
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Lambda, *_COMPREHENSIONS, *_FUNCTIONS, ast.ClassDef)):
                continue
            if self.is_candidate(node):
                found.append(node)
            stack.extend(reversed(_iter_children(node)))
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

    @classmethod
    def internal_bindings(cls, stmt):
        """Names `stmt` may bind before one of its own calls is evaluated.

        A walrus anywhere in the evaluated part, and for `with` the targets of
        earlier items (bound before later items are evaluated).
        """
        names = set()
        for expr in cls.header_exprs(stmt):
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
        for item in same_scope_nodes(node):
            if type(item) in may_write:
                writes |= node_writes(item)
            if isinstance(item, _BINDERS):
                touched.update(own_bindings(item))
            if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name):
                touched.add(item.value.id)
            elif isinstance(item, ast.Subscript) and isinstance(item.ctx, (ast.Store, ast.Del)):
                touched |= names_read(item.value)
            elif isinstance(item, ast.Call):
                slow = True
                if not self.is_tool_call(item):
                    for part in [*item.args, *(kw.value for kw in item.keywords)]:
                        touched |= self.exposed(part)
        cached = self._summaries[id(node)] = (frozenset(touched), slow, writes)
        return cached

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

    def thunk(self, call, location):
        """`prepare('tool', "{'k': <argument text>, ...}", lambda: {'n': n, ...})`.

        The arguments travel as text, evaluated by early evaluation (never as
        code of the program), over the values of the names they read; the
        lambda only reads those names. Builtins the arguments call are not
        passed: early evaluation computes them itself (they are bound nowhere).
        """
        payload = ast.unparse(ast.Dict(keys=[ast.Constant(kw.arg) for kw in call.keywords],
                                       values=[kw.value for kw in call.keywords]))
        callees = set()
        names = set()
        for kw in call.keywords:
            for node in _walk(kw.value):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    callees.add(id(node.func))
            names |= {n.id for n in _walk(kw.value)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in callees}
        ordered = sorted(names)
        values = ast.Dict(keys=[ast.Constant(n) for n in ordered],
                          values=[ast.Name(n, ast.Load()) for n in ordered])
        empty = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                              kw_defaults=[], kwarg=None, defaults=[])
        lam = ast.Lambda(args=empty, body=values)
        return _locate(ast.Call(func=ast.Name(self.namer.prepare, ast.Load()),
                                args=[ast.Constant(call.func.id), ast.Constant(payload), lam], keywords=[]),
                       location)

    def plan_call(self, block, index, stmt, call):
        if id(call) in self.claimed:
            return
        reads = self.call_reads(call)
        if reads is None or reads & self.facts.volatile or reads & self.internal_bindings(stmt):
            return
        resources = self.facts.reads[call.func.id]
        if self.writes_beside(stmt, call, resources):
            return
        target, position, _ = self.earliest(block, index, reads, resources)
        handle = self.namer.fresh("h")
        prepare = _locate(ast.Assign(targets=[ast.Name(handle, ast.Store())],
                                     value=self.thunk(call, call)), call)
        self.plan.insert(target, position, [prepare], [(handle, 0)])
        self.plan.rewrites[id(call)] = (call, ast.Name(handle, ast.Load()))
        self.claimed.add(id(call))

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

    def loop_calls(self, stmts):
        """(stmt, call) for calls that run at most once per iteration of the enclosing body."""
        for stmt in stmts:
            for call in self.own_calls(stmt):
                yield stmt, call
            if isinstance(stmt, ast.If):
                yield from self.loop_calls(stmt.body)
                yield from self.loop_calls(stmt.orelse)
            elif isinstance(stmt, ast.With):
                yield from self.loop_calls(stmt.body)
            elif isinstance(stmt, ast.Try):
                yield from self.loop_calls(stmt.body)

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
        if (self.fanout == 0 or not isinstance(loop.target, ast.Name)
                or GENERATED_BUILTINS & self.facts.bound or not self.iterable_ok(loop.iter)):
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
            chosen.append((call, invariant, resources))
        if not chosen:
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
                key=ast.Name(key, ast.Load()), value=self.thunk(call, call),
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
        if "lineno" in item._attributes:
            if getattr(item, "lineno", None) is not None:
                continue
            item.lineno, item.col_offset, item.end_lineno, item.end_col_offset = position
        stack.extend(_iter_children(item))
    return node


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
    call.func = _locate(ast.Name(resolve, ast.Load()), call.func)
    call.args = [_locate(handle, call), _locate(ast.Constant(name), call)]


def _apply(tree, plan, resolve):
    """Rewrite the planned calls and loops, then insert the prepare statements."""
    for call, handle in plan.rewrites.values():
        _rewrite_call(call, resolve, handle)
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
    guard = ast.Try(body=body, handlers=[ast.ExceptHandler(
        type=ast.Name("Exception", ast.Load()), name=None, body=handler)], orelse=[], finalbody=[])
    return _locate(guard, origin)
