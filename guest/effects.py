"""Effects order reads: what each call of a program may change, from its text.

"Speculative" means a tool has no side effects; it does not mean its value is
independent of effects. With `put` effectful and `get` speculative,

    put(key="a", value=1)
    result = get(key="a")      # 1, never the old value

so a speculative call never starts before an effectful call that the plain
program runs before it has completed. PLM (`plm.py`) does not place a prepare
above such a call, and prefix streaming (`prefix.py`) does not start, while
the program arrives, a call that follows one in program order.

Tools say what they touch (the manifest's "reads" of a speculative tool and
"writes" of an effectful one, lists of resource names): a read conflicts only
with a write sharing a name, so a read of the calendar is not held back by a
write to the mailbox. A missing list means everything; an empty list means
nothing.

A call may reach an effectful tool without naming it: through a function of
the program, or through anything that was handed an effectful tool or such a
function (`sorted(xs, key=f)`, `d = {"go": put}`, a lambda, a decorator). So
the analysis works on names:

- every function or lambda of the program gets the writes of the calls in its
  own body (calls of other functions by name included, to a fixed point);
- an effectful tool or function whose name is used other than as the callee
  of a call *escapes*; so does every lambda and every decorated function;
- a call whose callee is not a tool or a function of the program (a builtin,
  a method, an imported function, a parameter) may reach what escaped;
- a generator function's body runs whenever something iterates it, so its
  writes may happen at any iteration, anywhere.

This is conservative: too many writes cost parallelism, never meaning. The
host enforces the rule too (an effectful call cancels the early calls that
read what it writes), so a gap here costs a wasted call, not a stale read.
"""
import ast

__all__ = ["EVERYTHING", "NOTHING", "ToolEffects", "ProgramEffects", "conflict"]


class _Everything:
    """The resource standing for every resource (a missing "reads"/"writes")."""

    def __repr__(self):
        return "EVERYTHING"


_ALL = _Everything()
EVERYTHING = frozenset({_ALL})
NOTHING = frozenset()


def is_generator(function):
    """Whether a `def`'s own body yields (its nested functions aside): its
    body then runs when something iterates, not when it is called."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def conflict(reads, writes):
    """Whether a value depending on `reads` may change when `writes` are written."""
    if not reads or not writes:
        return False
    return _ALL in reads or _ALL in writes or not reads.isdisjoint(writes)


def _resources(spec, key):
    value = spec.get(key)
    if type(value) is list and all(type(name) is str for name in value):
        return frozenset(value)
    return EVERYTHING          # absent, null or malformed: the conservative default


class ToolEffects:
    """The manifest's resources: `reads` of each speculative tool, `writes` of
    each effectful one (missing: EVERYTHING)."""

    def __init__(self, manifest):
        self.reads = {}
        self.writes = {}
        for spec in manifest if isinstance(manifest, list) else ():
            if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
                continue
            if spec.get("speculative") is True:
                self.reads[spec["name"]] = _resources(spec, "reads")
            else:
                self.writes[spec["name"]] = _resources(spec, "writes")

    def key(self):
        """A hashable summary, for caches keyed by manifest."""
        return (tuple(sorted((n, tuple(sorted(map(repr, r)))) for n, r in self.reads.items())),
                tuple(sorted((n, tuple(sorted(map(repr, w)))) for n, w in self.writes.items())))


class _Scope:
    """What one function or lambda body calls: callee names, and whether it
    calls anything else (a method, the result of an expression)."""
    __slots__ = ("callees", "unknown", "generator")

    def __init__(self):
        self.callees = set()
        self.unknown = False
        self.generator = False


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_ITERATING = (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp, ast.Starred, ast.YieldFrom, ast.Await)


class ProgramEffects:
    """The writes each call may make, for a program given statement by
    statement (`add`), as a stream receives it, or whole.

    Code that runs at some point of a program comes from statements before
    that point, so a stream may ask about a call as soon as its statement was
    added: later statements cannot change what that call reaches.
    """

    def __init__(self, tools):
        self.tools = tools
        self._functions = {}           # name -> [_Scope] (one per def of that name)
        self._lambdas = []             # _Scope of every lambda (they always escape)
        self._escaping = set()         # names used other than as a callee
        self._decorated = set()        # functions handed to a decorator
        self._methods = set()          # functions defined in a class body
        self._bound = set()            # names bound other than by `def`
        self._writes = None            # solved: function name -> writes
        self._escaped = NOTHING
        self._ambient = NOTHING
        self._class_writes = NOTHING

    # -- collecting

    def add(self, node, nodes=None, walk=ast.walk):
        """Take in a statement (or a whole module).

        `walk(tree)` yields every node of a tree, each before its children;
        `nodes` is `walk(node)` when the caller already has it (PLM walks
        the program once for all its analyses).
        """
        self._writes = None
        callees = set()
        for item in walk(node) if nodes is None else nodes:
            kind = type(item)
            if kind is ast.Call:
                callees.add(id(item.func))
            elif kind is ast.Name:
                if type(item.ctx) is not ast.Load:
                    self._bound.add(item.id)
                elif id(item) not in callees:
                    self._escaping.add(item.id)
            elif kind in _FUNCTIONS:
                self._functions.setdefault(item.name, []).append(self._scope(item.body, walk))
                if item.decorator_list:
                    self._decorated.add(item.name)
                self._parameters(item.args)
            elif kind is ast.Lambda:
                self._lambdas.append(self._scope([item.body], walk))
                self._parameters(item.args)
            elif kind is ast.Import or kind is ast.ImportFrom:
                self._bound.update(a.asname or a.name.split(".")[0] for a in item.names)
            elif kind is ast.ClassDef:
                self._bound.add(item.name)
                # A method runs wherever an object of the class is used: a
                # method call, an operator, `len`, `str`, iteration (its
                # dunders). So its writes count at every opaque call and as
                # `class_writes`, which may happen anywhere.
                self._methods.update(stmt.name for stmt in item.body if type(stmt) in _FUNCTIONS)
            elif kind is ast.ExceptHandler or kind is ast.MatchAs or kind is ast.MatchStar:
                if item.name:
                    self._bound.add(item.name)
            elif kind is ast.MatchMapping and item.rest:
                self._bound.add(item.rest)
            elif kind is ast.Global or kind is ast.Nonlocal:
                self._bound.update(item.names)

    def _parameters(self, arguments):
        for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
            self._bound.add(arg.arg)
        for arg in (arguments.vararg, arguments.kwarg):
            if arg is not None:
                self._bound.add(arg.arg)

    @staticmethod
    def _scope(body, walk):
        """What a function or lambda body calls. Nested functions' bodies are
        counted too (more than it may call: conservative, and cheap)."""
        scope = _Scope()
        for stmt in body:
            for item in walk(stmt):
                kind = type(item)
                if kind is ast.Call:
                    if type(item.func) is ast.Name:
                        scope.callees.add(item.func.id)
                    else:
                        scope.unknown = True
                elif kind in _FUNCTIONS:
                    for decorator in item.decorator_list:   # `@d def f` calls `d(f)`
                        if type(decorator) is ast.Name:
                            scope.callees.add(decorator.id)
                        else:
                            scope.unknown = True
                elif kind is ast.Yield or kind is ast.YieldFrom:
                    scope.generator = True
        return scope

    # -- solving

    def _solve(self):
        """Writes of every function, and of what escaped, to a fixed point."""
        writes = {name: NOTHING for name in self._functions}
        escaped = NOTHING
        tool_writes = self.tools.writes
        for name in self._escaping:
            escaped |= tool_writes.get(name, NOTHING)
        scopes = [(name, scope) for name, group in self._functions.items() for scope in group]
        while True:
            self._writes, self._escaped = writes, escaped
            changed = False
            new_escaped = escaped
            for name in (self._escaping | self._decorated | self._methods) & writes.keys():
                new_escaped |= writes[name]
            new_writes = dict(writes)
            for name, scope in scopes:
                new_writes[name] = new_writes[name] | self._scope_writes(scope)
            for scope in self._lambdas:
                new_escaped |= self._scope_writes(scope)
            for name, scope in scopes:
                if scope.generator:
                    new_escaped |= new_writes[name]
            if new_escaped != escaped or new_writes != writes:
                changed = True
            writes, escaped = new_writes, new_escaped
            if not changed:
                break
        self._writes, self._escaped = writes, escaped
        ambient = NOTHING
        for name, scope in scopes:
            if scope.generator:
                ambient |= writes[name]
        self._ambient = ambient
        methods = NOTHING
        for name in self._methods & writes.keys():
            methods |= writes[name]
        self._class_writes = methods

    def _scope_writes(self, scope):
        found = self._escaped if scope.unknown else NOTHING
        for name in scope.callees:
            found |= self.callee_writes(name)
        return found

    def _ready(self):
        if self._writes is None:
            self._solve()

    # -- questions

    def callee_writes(self, name):
        """What calling the name `name` may write."""
        self._ready()
        found = self.tools.writes.get(name, NOTHING)
        if name in self._functions:
            found = found | self._writes.get(name, NOTHING)
        known = name in self.tools.writes or name in self.tools.reads or name in self._functions
        if not known or name in self._bound:
            found = found | self._escaped
        return found

    def call_writes(self, call):
        """What the call node `call` itself may write (its arguments aside)."""
        if type(call.func) is ast.Name:
            return self.callee_writes(call.func.id)
        self._ready()
        return self._escaped

    @property
    def escaped(self):
        """What code the analysis cannot see (an opaque call) may write."""
        self._ready()
        return self._escaped

    @property
    def class_writes(self):
        """What the methods of the program's classes may write: any operation
        on an object may run one (its dunders), so any statement may write it."""
        self._ready()
        return self._class_writes

    def writes_within(self, node):
        """What anything under `node` may write, function bodies included
        (for code that is not followed step by step)."""
        found = NOTHING
        for item in ast.walk(node):
            found |= self.node_writes(item)
        return found

    def node_writes(self, node):
        """What evaluating `node` itself may write (not its children): a call,
        a decorated definition (its decorators are called), or an operation
        that iterates (a generator function's body may run there)."""
        kind = type(node)
        if kind is ast.Call:
            return self.call_writes(node)
        if kind in _FUNCTIONS:
            found = NOTHING
            for decorator in node.decorator_list:
                found |= (self.callee_writes(decorator.id) if type(decorator) is ast.Name else self.escaped)
            return found
        if kind in _ITERATING or (kind is ast.Compare and any(type(op) in (ast.In, ast.NotIn) for op in node.ops)):
            self._ready()
            return self._ambient
        if (kind is ast.Tuple or kind is ast.List) and type(node.ctx) is ast.Store:
            self._ready()
            return self._ambient
        return NOTHING
