"""Prefix streaming: start speculative tool calls while the program is arriving.

A model streams its program; `Prefix.feed` receives it chunk by chunk. Each
top-level statement is analysed once, as soon as it is complete, and every call
to a speculative tool whose keyword arguments are already known (constants,
`inputs`, names assigned from them) is handed to the host's `prepare`. When the
stream ends, bootstrap runs the whole source with PLM, and each call first
tries `claim(request)` for a handle prepared here.

Nothing here ever runs user code: the source is only scanned and given to
`ast.parse`; "known" values are computed by early evaluation (early.py, shared
with PLM) over plain data. Each statement is followed within a budget of
steps and time, and the whole stream within a time budget (`Budget`); code
that cannot run (`while False:`, a decided `if`, after a `raise`) is not
followed.
A wrong guess is harmless by construction: only speculative (side-effect free)
tools are prepared, never after a call that may write what they read (effects
order reads: `Prefix.written`, effects.py), and a prepared call is used only by
a call whose canonical request string is identical, so a guess that does not
match costs one wasted call and nothing else. The analysis is still conservative, so that waste stays
rare. See PREFIX_RATIONALE.md for the choices.

The pieces, in the order data flows:
- `_Splitter`: a character state machine that cuts the growing source into
  complete top-level statements (brackets, strings, comments, continuations,
  decorators, `elif`/`else`/`except`/`finally`).
- `Prefix._segment`: parses each complete statement once; a syntax error
  waits for more input with a geometric back-off, so the retry work is linear.
- `_note` / `_module_bindings`: what a statement may rebind, and whether the
  program may now run code we cannot see (reflection, implicit dunder calls).
- `early.Evaluator`: known values of expressions over plain data, with size
  guards that count aliased parts once per place.
- `_Walker`: follows statements in evaluation order, keeps the known-value
  environment, applies barriers after opaque code, notes calls to prepare.
- `Prefix._follow`: one statement within its budget; its calls start only
  once it was followed to the end, and a statement past its budget is given
  up like opaque code.
- `Pool`: prepared handles by request, first prepared first claimed.
"""
import ast
import codecs
import collections
import re
import time

from effects import EVERYTHING, NOTHING, ProgramEffects, ToolEffects, conflict, is_generator
from early import (BUILTIN_KEYWORDS, MAX_DEPTH, METHODS, UNKNOWN as _U, Evaluator, Meter, OverBudget,
                   frozen, request_ok)
from policy import IMPLICIT_NAMES, REFLECTIVE_NAMES, SAFE_MODULES, is_reflective_attr
from protocol import encode_request

__all__ = ["Prefix"]

MAX_BRACKETS = 100        # bracket depth above which a statement is not parsed
MAX_RETRIES = 8           # parse attempts of one unparseable region
MAX_UNROLL = 64           # iterations of a loop over a known sequence followed
UNROLL_BUDGET = 2048      # ... and in all, per stream (nested loops multiply)
REACH_BUDGET = 20000      # containers walked to decide whether a value contains another

# The analysis budget (see `Budget`); prefix_begin's "budget" may override each.
STATEMENT_STEPS = 1 << 18   # steps to follow one top-level statement
STATEMENT_MS = 500          # wall time to follow one top-level statement
STREAM_MS = 10000           # wall time of all analysis of one stream


# --- Statement completeness --------------------------------------------------

_HEADERS = frozenset({"if", "for", "while", "try", "with", "def", "class", "async", "match"})
_CONTINUATIONS = frozenset({"elif", "else", "except", "finally"})

_NORMAL_STOP = re.compile(r"[\"'#\\()\[\]{}\n\r]")
_COMMENT_STOP = re.compile(r"[\n\r]")
_STRING_STOP = {'"': re.compile(r'["\\\n\r]'), "'": re.compile(r"['\\\n\r]")}

(_LINESTART, _WORD, _NORMAL, _COMMENT, _STRING, _Q1, _Q2, _BACKSLASH, _CR,
 _CR_CONT, _STR_CR) = range(11)
_SIMPLE, _COMPOUND, _DECORATOR = range(3)


class _Splitter:
    """Cuts a growing source into complete top-level statements.

    A character state machine with no look-ahead: every decision that needs the
    next character waits in a state for it, so cutting the source into chunks
    anywhere gives the same statements as feeding it whole (tested at every
    byte offset). It tracks physical vs logical lines (brackets, backslash
    continuations, strings with escapes and triple quotes, comments, CR/LF),
    and for each logical line the first word and whether it starts in column 0.

    Grouping: a simple statement at column 0 is complete at its NEWLINE (an
    indented line may not follow it in a valid program). A compound statement
    (first word `if`, `def`, `@`, ...) is complete when a later logical line
    at column 0 arrives that does not continue it (`elif`/`else`/`except`/
    `finally`; after a decorator, anything). An indented line with no open
    statement can never become valid: `broken` is set and stays set.
    """

    def __init__(self):
        self.offset = 0          # absolute offset of the next character
        self.state = _LINESTART
        self.depth = 0
        self.line_depth = 0      # deepest bracket nesting of the current logical line
        self.group_depth = 0     # ... and of the open compound statement
        self.ws = False          # whitespace since line start / last form feed
        self.content = -1        # offset of the current logical line's first token
        self.indent0 = False
        self.word = ""
        self.quote = ""
        self.triple = False
        self.run = 0
        self.escape = False
        self.group = -1          # offset of the open compound statement
        self.kind = _SIMPLE
        self.broken = False

    def needed(self):
        """The smallest offset a future statement can start at."""
        starts = [self.offset]
        if self.group >= 0:
            starts.append(self.group)
        if self.content >= 0:
            starts.append(self.content)
        return min(starts)

    def feed(self, chunk):
        """Scan `chunk`; return (start, end, bracket depth) of statements completed."""
        out = []
        base = self.offset
        i, n = 0, len(chunk)
        while i < n:
            st = self.state
            if st == _NORMAL:
                m = _NORMAL_STOP.search(chunk, i)
                if m is None:
                    i = n
                    break
                i = m.start()
                c = chunk[i]
                i += 1
                if c in "([{":
                    self.depth += 1
                    if self.depth > self.line_depth:
                        self.line_depth = self.depth
                elif c in ")]}":
                    if self.depth:
                        self.depth -= 1
                elif c == "#":
                    self.state = _COMMENT
                elif c == "\\":
                    self.state = _BACKSLASH
                elif c == "\n":
                    self._newline(base + i, out)
                elif c == "\r":
                    self.state = _CR
                else:
                    self.quote = c
                    self.state = _Q1
                continue
            c = chunk[i]
            if st == _LINESTART:
                if c == " " or c == "\t":
                    self.ws = True
                elif c == "\f":
                    self.ws = False          # a form feed resets the column
                elif c == "\n":
                    self.ws = False
                elif c == "\r":
                    self.state = _CR
                elif c == "#":
                    self.state = _COMMENT
                else:
                    self.content = base + i
                    self.indent0 = not self.ws
                    self.word = ""
                    self.state = _WORD
                    continue                  # the character starts the word
                i += 1
            elif st == _WORD:
                if c == "@" and not self.word:
                    self.word = "@"
                    self.state = _NORMAL
                    i += 1
                elif c.isalnum() or c == "_" or c > "\x7f":
                    if len(self.word) < 16:
                        self.word += c
                    i += 1
                else:
                    self.state = _NORMAL      # re-read c as code
            elif st == _COMMENT:
                m = _COMMENT_STOP.search(chunk, i)
                if m is None:
                    i = n
                    break
                i = m.start()
                self.state = _NORMAL if self.content >= 0 or self.depth else _LINESTART
            elif st == _STRING:
                if self.escape:
                    self.escape = False
                    self.run = 0
                    self.state = _STR_CR if c == "\r" else _STRING
                    i += 1
                    continue
                m = _STRING_STOP[self.quote].search(chunk, i)
                if m is None:
                    self.run = 0
                    i = n
                    break
                if m.start() > i:
                    self.run = 0
                i = m.start()
                c = chunk[i]
                if c == "\\":
                    self.escape = True
                    i += 1
                elif c == self.quote:
                    i += 1
                    if not self.triple:
                        self.state = _NORMAL
                    else:
                        self.run += 1
                        if self.run == 3:
                            self.state = _NORMAL
                elif self.triple:
                    self.run = 0
                    i += 1
                else:
                    self.state = _NORMAL      # unterminated: the newline ends it
            elif st == _Q1:
                if c == self.quote:
                    self.state = _Q2
                    i += 1
                else:
                    self.state, self.triple, self.run = _STRING, False, 0
            elif st == _Q2:
                if c == self.quote:
                    self.state, self.triple, self.run = _STRING, True, 0
                    i += 1
                else:
                    self.state = _NORMAL      # "" was an empty string
            elif st == _BACKSLASH:
                if c == "\n":
                    self.state = _NORMAL
                    i += 1
                elif c == "\r":
                    self.state = _CR_CONT
                    i += 1
                else:
                    self.state = _NORMAL
            elif st == _CR_CONT:
                if c == "\n":
                    i += 1
                self.state = _NORMAL
            elif st == _STR_CR:
                if c == "\n":
                    i += 1
                self.state = _STRING
            elif st == _CR:
                if c == "\n":
                    i += 1
                self._newline(base + i, out)
        self.offset = base + n
        return out

    def _newline(self, end, out):
        """A physical line ended at `end`: inside brackets it continues."""
        if self.depth:
            self.state = _NORMAL
            return
        self.state = _LINESTART
        self.ws = False
        depth, self.line_depth = self.line_depth, 0
        if self.content >= 0:
            start, self.content = self.content, -1
            self._line(start, end, self.indent0, self.word, depth, out)

    def _line(self, start, end, indent0, word, depth, out):
        """Group one complete logical line into top-level statements."""
        if self.broken:
            return
        if not indent0:
            if self.group < 0:
                self.broken = True            # unexpected indent, forever
            self.group_depth = max(self.group_depth, depth)
            return
        if self.group >= 0:
            if self.kind == _DECORATOR:
                self.group_depth = max(self.group_depth, depth)
                if word == "@":
                    return
                if word in _HEADERS:
                    self.kind = _COMPOUND
                    return
                out.append((self.group, end, self.group_depth))  # not a definition: parse says so
                self.group = -1
                return
            if word in _CONTINUATIONS:
                self.group_depth = max(self.group_depth, depth)
                return
            out.append((self.group, start, self.group_depth))
            self.group = -1
        if word == "@":
            self.group, self.kind, self.group_depth = start, _DECORATOR, depth
        elif word in _HEADERS or word in _CONTINUATIONS:
            self.group, self.kind, self.group_depth = start, _COMPOUND, depth
        else:
            out.append((start, end, depth))


# --- What a statement may bind, and what it may run ----------------------------

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _module_bindings(node):
    """Names `node` may bind in the module namespace.

    Returns (bound, declared_global, star_import). Scope-aware: a function's
    or class's locals and comprehension targets do not rebind module names; a
    walrus inside a module-level comprehension does; `global x` inside a
    function or class is returned separately, since that code may rebind `x`
    whenever it runs. Iterative, so a deep tree cannot exhaust the stack.
    """
    bound, declared, star = set(), set(), False
    stack = [(node, True, True)]    # (node, binds module names, walrus binds module)
    while stack:
        n, mod, wal = stack.pop()
        t = type(n)
        if t is ast.Name:
            if mod and not isinstance(n.ctx, ast.Load):
                bound.add(n.id)
            continue
        if t is ast.NamedExpr:
            if wal and isinstance(n.target, ast.Name):
                bound.add(n.target.id)
            stack.append((n.value, mod, wal))
            continue
        if t in _FUNCTIONS or t is ast.Lambda or t is ast.ClassDef:
            if t is not ast.Lambda and mod:
                bound.add(n.name)
            outer = list(getattr(n, "decorator_list", ()))
            if t is ast.ClassDef:
                outer += n.bases + [k.value for k in n.keywords]
                inner = n.body
            else:
                a = n.args
                outer += a.defaults + [d for d in a.kw_defaults if d is not None]
                if t is not ast.Lambda:
                    outer += [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs
                              if x.annotation is not None]
                    outer += [x.annotation for x in (a.vararg, a.kwarg)
                              if x is not None and x.annotation is not None]
                    if n.returns is not None:
                        outer.append(n.returns)
                inner = n.body if t is not ast.Lambda else [n.body]
            stack.extend((x, mod, wal) for x in outer)
            stack.extend((x, False, False) for x in inner)
            continue
        if t in _COMPREHENSIONS:
            gens = n.generators
            stack.append((gens[0].iter, mod, wal))
            rest = [g.target for g in gens] + [g.iter for g in gens[1:]]
            rest += [c for g in gens for c in g.ifs]
            rest += [n.key, n.value] if t is ast.DictComp else [n.elt]
            stack.extend((x, False, wal) for x in rest)
            continue
        if t is ast.Import or t is ast.ImportFrom:
            for alias in n.names:
                if alias.name == "*":
                    star = True
                elif mod:
                    bound.add(alias.asname or alias.name.split(".")[0])
            continue
        if t is ast.Global:
            if not mod:
                declared.update(n.names)
            continue
        if t is ast.ExceptHandler and n.name and mod:
            bound.add(n.name)
        elif t in (ast.MatchAs, ast.MatchStar) and n.name and mod:
            bound.add(n.name)
        elif t is ast.MatchMapping and n.rest and mod:
            bound.add(n.rest)
        stack.extend((c, mod, wal) for c in ast.iter_child_nodes(n))
    return bound, declared, star


def _scan_flags(node):
    """(reflective, implicit) for `node`: may the program now reach namespaces
    or frames, or run its own code without a visible call?"""
    reflective = implicit = False
    for n in ast.walk(node):
        t = type(n)
        if t is ast.Name:
            if n.id in REFLECTIVE_NAMES:
                reflective = True
            if n.id in IMPLICIT_NAMES:
                implicit = True
        elif t is ast.Attribute:
            if is_reflective_attr(n.attr):
                reflective = True
            if not isinstance(n.ctx, ast.Load):
                implicit = True            # functions with attributes become callables
        elif t is ast.ClassDef or t is ast.GeneratorExp or t is ast.Yield or t is ast.YieldFrom:
            implicit = True
        elif t is ast.Import:
            if any(a.name.split(".")[0] not in SAFE_MODULES for a in n.names):
                reflective = implicit = True
        elif t is ast.ImportFrom:
            if n.level or (n.module or "").split(".")[0] not in SAFE_MODULES:
                reflective = implicit = True
    return reflective, implicit


# --- Calls the walker knows ----------------------------------------------------

# Methods that never mutate their object nor call user code on builtin types.
_PURE_METHODS = METHODS | frozenset({
    "keys", "values", "items", "format", "encode", "decode",
    "isoformat", "hex", "bit_length", "is_integer",
})
# Mutating methods of builtin containers: they change only their own object.
_MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
    "update", "setdefault", "popitem", "add", "discard",
})
# Builtins that change no guest value given plain arguments, with the keywords
# each may take safely: the ones early evaluation computes, `print` (no value,
# no effect on guest values) and pure ones whose values are not plain data.
_SAFE_BUILTINS = {
    **BUILTIN_KEYWORDS,
    "print": ("sep", "end", "flush"), "isinstance": (),
    "range": (), "enumerate": ("start",), "zip": (), "reversed": (), "any": (),
    "all": (), "chr": (), "ord": (), "divmod": (), "set": (), "frozenset": (),
    "hex": (), "bin": (), "oct": (),
}


# Builtins that apply a function to every item of a sequence at once.
_APPLYING = frozenset({"sorted", "min", "max", "map", "filter"})


def _reaches(v, target, meter):
    """Whether `target` is `v` or inside it (True when the walk is too long).

    Each container is walked once however often it is shared, so aliasing
    (`[[row] * 1000] * 1000`) costs its distinct parts, not its expansion.
    """
    stack, seen, budget = [v], set(), REACH_BUDGET
    while stack:
        x = stack.pop()
        if x is target:
            return True
        t = type(x)
        if t not in (list, tuple, set, dict) or id(x) in seen:
            continue
        seen.add(id(x))
        meter.tick(len(x) + 1)
        stack.extend(x.values() if t is dict else x)
        budget -= 1
        if budget < 0:
            return True
    return False


# --- Following the program ---------------------------------------------------

_TERMINATORS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


def _locals(fdef):
    """Names a function's body binds: its locals (and its parameters)."""
    names = set()
    for stmt in fdef.body:
        names |= _module_bindings(stmt)[0]
    a = fdef.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
        if arg is not None:
            names.add(arg.arg)
    return names


MAX_INLINE = 3            # nested calls of program functions followed into


class _Walker:
    """Follows statements in evaluation order over an environment of known values.

    `env` maps a name to its known value; a name not in `env` is unknown.
    Calls are classified as: a tool (prepared when speculative, reachable and
    all keyword arguments known), pure (safe builtins, non-mutating methods:
    nothing changes), a local mutation (a mutating builtin method or a
    subscript store on a known object: names whose value contains that object
    are forgotten), or opaque (anything else: the barrier forgets every known
    mutable value, and every value once the program may use reflection).
    Compound statements are followed on copies of `env` and merged back by
    identity, so a name survives only if no path may have changed it.
    """

    def __init__(self, state):
        self.s = state
        self.value = state.evaluator.value
        self.inlined = 0                   # program functions being followed into

    # -- environment effects

    def barrier(self, env, writes=None):
        """Code we cannot see may have run: forget what it could have changed,
        and note what it may have written (`writes`; default: whatever
        escaped to code the analysis cannot see, effects.py)."""
        self.s.wrote(self.s.effects.escaped if writes is None else writes)
        if self.s.reflective:
            env.clear()
        else:
            for k in [k for k, v in env.items() if not frozen(v, self.s.meter)]:
                del env[k]

    def mutated(self, env, obj):
        """The known object `obj` was changed in place: forget names that reach it."""
        for k in [k for k, v in env.items() if _reaches(v, obj, self.s.meter)]:
            del env[k]

    def bind(self, env, name, v):
        if v is _U or name in self.s.poisoned:
            env.pop(name, None)
        else:
            env[name] = v

    @staticmethod
    def merge(env, branches, drop=()):
        """Keep in `env` only names every branch left bound to the same object."""
        for k in list(env):
            v = env[k]
            if k in drop or any(b.get(k, _U) is not v for b in branches):
                del env[k]

    def unroll(self, n):
        """Whether to follow `n` iterations one by one (bounded per loop and per stream)."""
        stats = self.s.stats
        if not 0 < n <= MAX_UNROLL or stats["iterations"] + n > UNROLL_BUDGET:
            return False
        stats["iterations"] += n
        return True

    def implicit_check(self, node, env):
        """With user classes or lazy callbacks around, any operation on an
        unknown value may run user code."""
        if self.s.implicit and self.value(node, env) is _U:
            self.barrier(env)

    # -- statements

    def block(self, body, env, depth):
        """Follow a statement list; True when it certainly does not complete
        normally (it raises, returns, breaks, continues or never ends), so
        what follows it is not followed either."""
        for s in body:
            if self.stmt(s, env, depth) or isinstance(s, _TERMINATORS):
                return True                # the rest of the block is unreachable
        return False

    def stmt(self, s, env, depth):
        """Follow one statement; True when it certainly does not complete normally."""
        self.s.meter.tick()
        if depth > MAX_DEPTH:
            self.barrier(env, self.s.effects.writes_within(s))   # not followed
            for name in _module_bindings(s)[0]:
                env.pop(name, None)
            return False
        t = type(s)
        handler = getattr(self, "s_" + t.__name__, None)
        if handler is not None:
            return handler(s, env, depth)
        # Anything else (unknown to this walker): assume the worst.
        for child in ast.iter_child_nodes(s):
            if isinstance(child, ast.expr):
                self.expr(child, env, False, depth + 1)
        self.barrier(env, self.s.effects.writes_within(s))
        for name in _module_bindings(s)[0]:
            env.pop(name, None)

    def s_Expr(self, s, env, depth):
        self.expr(s.value, env, True, depth + 1)

    def s_Assign(self, s, env, depth):
        self.expr(s.value, env, True, depth + 1)
        v = self.value(s.value, env)
        for target in s.targets:
            self.target(target, v, env, depth + 1)

    def s_AnnAssign(self, s, env, depth):
        if s.value is not None:
            self.expr(s.value, env, True, depth + 1)
        self.expr(s.annotation, env, True, depth + 1)
        if s.value is not None:
            self.target(s.target, self.value(s.value, env), env, depth + 1)
        elif type(s.target) is not ast.Name:
            for child in ast.iter_child_nodes(s.target):
                if isinstance(child, ast.expr):
                    self.expr(child, env, True, depth + 1)

    def s_AugAssign(self, s, env, depth):
        self.expr(s.value, env, True, depth + 1)
        tg = s.target
        if type(tg) is ast.Name:
            cur = env.get(tg.id, _U)
            if cur is _U:
                if self.s.implicit:
                    self.barrier(env)
                env.pop(tg.id, None)
            elif frozen(cur, self.s.meter):
                r = self.value(s.value, env)
                self.bind(env, tg.id, _U if r is _U else self.s.evaluator.binop(type(s.op), cur, r))
            else:
                self.mutated(env, cur)     # `xs += [1]` changes the list in place
                env.pop(tg.id, None)
        else:
            self.store(tg, env, depth + 1)

    def s_Delete(self, s, env, depth):
        for tg in s.targets:
            if type(tg) is ast.Name:
                env.pop(tg.id, None)
            elif type(tg) in (ast.Tuple, ast.List):
                self.target(tg, _U, env, depth + 1)
            else:
                self.store(tg, env, depth + 1)

    def s_Pass(self, s, env, depth):
        pass

    s_Break = s_Continue = s_Global = s_Nonlocal = s_Pass

    def s_Import(self, s, env, depth):
        self.barrier(env)                  # module code ran
        for name in _module_bindings(s)[0]:
            env.pop(name, None)

    s_ImportFrom = s_Import

    def s_Assert(self, s, env, depth):
        self.expr(s.test, env, True, depth + 1)
        test = self.value(s.test, env)
        if s.msg is not None:
            self.expr(s.msg, env, test is not _U and not test, depth + 1)
        return test is not _U and not test

    def s_Raise(self, s, env, depth):
        for e in (s.exc, s.cause):
            if e is not None:
                self.expr(e, env, True, depth + 1)
        return True

    def s_Return(self, s, env, depth):
        if s.value is not None:
            self.expr(s.value, env, True, depth + 1)

    def s_If(self, s, env, depth):
        self.expr(s.test, env, True, depth + 1)
        self.implicit_check(s.test, env)
        test = self.value(s.test, env)
        if test is not _U:
            # The branch is decided before execution: follow it as straight-line
            # code; the other one cannot run and is not looked at.
            return self.block(s.body if test else s.orelse, env, depth + 1)
        branches = []
        ends = True
        for body in (s.body, s.orelse):
            b = dict(env)
            ends = self.block(body, b, depth + 1) and ends
            branches.append(b)
        self.merge(env, branches)
        return ends

    def s_For(self, s, env, depth):
        self.expr(s.iter, env, True, depth + 1)
        self.implicit_check(s.iter, env)
        seq = self.value(s.iter, env)
        # The first iteration starts from exactly the current values; names the
        # loop binds are forgotten after it (it may run any number of times).
        bound = _module_bindings(s)[0]
        body = dict(env)
        if type(seq) in (list, tuple, str, dict) and not seq:
            return self.block(s.orelse, env, depth + 1)   # the body cannot run
        if type(seq) in (list, tuple, str, dict) and self.unroll(len(seq)):
            # A loop over a known sequence: follow the iterations in order
            # (the iteration sequence is a snapshot; if the body may change it,
            # the barrier has forgotten it and we stop following).
            holders = [k for k, v in body.items() if _reaches(v, seq, self.s.meter)]
            escapes = self._escapes(s.body)
            iteration = dict(body)
            seen = []
            for item in list(seq):
                self.target(s.target, item, iteration, depth + 1)
                self.block(s.body, iteration, depth + 1)
                seen.append(iteration)
                if escapes or any(iteration.get(k, _U) is not body[k] for k in holders):
                    break                  # the loop may end here, or its sequence changed
                iteration = dict(iteration)
            if not escapes:
                after = dict(iteration)
                self.block(s.orelse, after, depth + 1)
                seen.append(after)
            self.merge(env, seen, bound)
            return
        self.target(s.target, _U, body, depth + 1)
        self.block(s.body, body, depth + 1)
        self.block(s.orelse, body, depth + 1)
        self.merge(env, [body], bound)

    s_AsyncFor = s_For

    @staticmethod
    def _escapes(body):
        """Whether a loop body may leave the loop or skip (break/continue/return)."""
        for n in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Try)):
                return True
        return False

    def s_While(self, s, env, depth):
        self.expr(s.test, env, True, depth + 1)
        self.implicit_check(s.test, env)
        test = self.value(s.test, env)
        if test is not _U and not test:
            return self.block(s.orelse, env, depth + 1)   # the body cannot run
        bound = _module_bindings(s)[0]
        body = dict(env)
        self.block(s.body, body, depth + 1)
        if test is not _U and not self._breaks(s.body):
            # `while True:` without a break of its own never completes
            # normally: neither its `else` nor what follows can run.
            self.merge(env, [body], bound)
            return True
        self.block(s.orelse, body, depth + 1)
        self.merge(env, [body], bound)
        return False

    @staticmethod
    def _breaks(body):
        """Whether a loop body has a `break` of this loop (not of a nested one)."""
        stack = list(body)
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Break):
                return True
            if isinstance(n, (ast.For, ast.AsyncFor, ast.While)):
                stack.extend(n.orelse)     # a break there ends this loop
                continue
            if isinstance(n, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)) or isinstance(n, ast.expr):
                continue
            stack.extend(ast.iter_child_nodes(n))
        return False

    def s_Try(self, s, env, depth):
        bound = _module_bindings(s)[0]
        body = dict(env)
        self.block(s.body, body, depth + 1)
        after_error = {k: v for k, v in env.items() if k not in bound and body.get(k, _U) is v}
        seen = [body]
        for h in s.handlers:
            e = dict(after_error)
            if h.type is not None:
                self.expr(h.type, e, True, depth + 1)
            self.block(h.body, e, depth + 1)
            seen.append(e)
        self.block(s.orelse, body, depth + 1)
        final = dict(after_error)
        self.merge(final, seen)
        self.block(s.finalbody, final, depth + 1)
        seen.append(final)
        self.merge(env, seen, bound)

    s_TryStar = s_Try

    def s_With(self, s, env, depth):
        for item in s.items:
            self.expr(item.context_expr, env, True, depth + 1)
        if self.s.implicit:
            self.barrier(env)              # __enter__ / __exit__ may be user code
        bound = _module_bindings(s)[0]
        body = dict(env)
        for item in s.items:
            if item.optional_vars is not None:
                self.target(item.optional_vars, _U, body, depth + 1)
        self.block(s.body, body, depth + 1)
        self.merge(env, [body], bound)

    s_AsyncWith = s_With

    def s_Match(self, s, env, depth):
        self.expr(s.subject, env, True, depth + 1)
        if self.s.implicit:
            self.barrier(env)              # class patterns read user attributes
        bound = _module_bindings(s)[0]
        seen = []
        for case in s.cases:
            e = {k: v for k, v in env.items() if k not in bound}
            if case.guard is not None:
                self.expr(case.guard, e, False, depth + 1)
            self.block(case.body, e, depth + 1)
            seen.append(e)
        self.merge(env, seen, bound)

    def s_FunctionDef(self, s, env, depth):
        a = s.args
        evaluated = a.defaults + [d for d in a.kw_defaults if d is not None]
        evaluated += [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
                      if x is not None and x.annotation is not None]
        if s.returns is not None:
            evaluated.append(s.returns)
        for e in s.decorator_list + evaluated:
            self.expr(e, env, True, depth + 1)
        if s.decorator_list:
            self.barrier(env)              # a decorator is a call of user code
        env.pop(s.name, None)

    s_AsyncFunctionDef = s_FunctionDef

    def s_ClassDef(self, s, env, depth):
        for e in s.decorator_list + s.bases + [k.value for k in s.keywords]:
            self.expr(e, env, True, depth + 1)
        self.barrier(env, self.s.effects.writes_within(s))   # the class body runs now, unfollowed
        for name in _module_bindings(s)[0]:
            env.pop(name, None)

    # -- assignment targets

    def target(self, tg, v, env, depth):
        """Bind `tg` to the value `v` (or _U), in evaluation order."""
        t = type(tg)
        if t is ast.Name:
            self.bind(env, tg.id, v)
        elif t in (ast.Tuple, ast.List):
            items = None
            if type(v) in (list, tuple, str) and len(v) == len(tg.elts) \
                    and not any(type(e) is ast.Starred for e in tg.elts):
                items = list(v)
            elif self.s.implicit:
                self.barrier(env)          # unpacking iterates an unknown value
            for i, e in enumerate(tg.elts):
                self.target(e, _U if items is None else items[i], env, depth + 1)
        elif t is ast.Starred:
            self.target(tg.value, _U, env, depth + 1)
        else:
            self.store(tg, env, depth)

    def store(self, tg, env, depth):
        """A subscript or attribute store (or del): a mutation of its object."""
        if type(tg) is ast.Subscript:
            self.expr(tg.value, env, True, depth + 1)
            self.expr(tg.slice, env, True, depth + 1)
            obj = self.value(tg.value, env)
            if obj is not _U and not self.s.implicit:
                self.mutated(env, obj)
                return
        elif type(tg) is ast.Attribute:
            self.expr(tg.value, env, True, depth + 1)
        self.barrier(env)

    # -- expressions

    def expr(self, e, env, reach, depth):
        """Scan `e` in evaluation order; prepare reachable known tool calls.

        `reach` is False where the program might not evaluate `e` (after a
        short-circuit operator, in a conditional expression's branch, in a
        comprehension's body): calls there are not prepared, but their effects
        on known values are still accounted for.
        """
        self.s.meter.tick()
        if depth > MAX_DEPTH:
            self.barrier(env, self.s.effects.writes_within(e))   # not followed
            return
        t = type(e)
        if t is ast.Constant or t is ast.Name:
            return
        if t is ast.Call:
            self.call(e, env, reach, depth)
            return
        if t is ast.Lambda:
            for d in e.args.defaults + [d for d in e.args.kw_defaults if d is not None]:
                self.expr(d, env, reach, depth + 1)
            return
        if t is ast.NamedExpr:
            self.expr(e.value, env, reach, depth + 1)
            self.bind(env, e.target.id, self.value(e.value, env) if reach else _U)
            return
        if t is ast.BoolOp:
            go = reach
            self.expr(e.values[0], env, go, depth + 1)
            for prev, nxt in zip(e.values, e.values[1:]):
                if go:
                    pv = self.value(prev, env)
                    go = pv is not _U and bool(pv) == (type(e.op) is ast.And)
                self.expr(nxt, env, go, depth + 1)
        elif t is ast.IfExp:
            self.expr(e.test, env, reach, depth + 1)
            tv = self.value(e.test, env) if reach else _U
            self.expr(e.body, env, reach and tv is not _U and bool(tv), depth + 1)
            self.expr(e.orelse, env, reach and tv is not _U and not tv, depth + 1)
        elif t in _COMPREHENSIONS:
            self.comprehension(e, env, reach, depth)
        else:
            for child in ast.iter_child_nodes(e):
                if isinstance(child, ast.expr):
                    self.expr(child, env, reach, depth + 1)
        if t not in (ast.List, ast.Tuple, ast.Starred):
            self.implicit_check(e, env)

    def comprehension(self, e, env, reach, depth):
        """The first iterable is always evaluated; the body runs once per
        element. Over a known short sequence with a single `for`, the body is
        followed once per element (fan-out); otherwise it is not prepared."""
        gens = e.generators
        self.expr(gens[0].iter, env, reach, depth + 1)
        bound = set()
        for g in gens:
            bound |= _module_bindings(g.target)[0]
        inner = {k: v for k, v in env.items() if k not in bound}
        parts = [e.key, e.value] if type(e) is ast.DictComp else [e.elt]
        seq = self.value(gens[0].iter, env) if reach else _U
        if (len(gens) == 1 and type(e) is not ast.GeneratorExp and type(seq) in (list, tuple, str, dict)
                and not any(type(n) is ast.NamedExpr for p in parts + gens[0].ifs for n in ast.walk(p))
                and self.unroll(len(seq))):
            for item in list(seq):
                scope = dict(inner)
                self.target(gens[0].target, item, scope, depth + 1)
                go = True
                for cond in gens[0].ifs:
                    self.expr(cond, scope, go, depth + 1)
                    cv = self.value(cond, scope)
                    go = go and cv is not _U and bool(cv)
                for p in parts:
                    self.expr(p, scope, go, depth + 1)
                self.merge(inner, [scope])
        else:
            for g in gens[1:]:
                self.expr(g.iter, inner, False, depth + 1)
            for p in [c for g in gens for c in g.ifs] + parts:
                self.expr(p, inner, False, depth + 1)
        # Effects on names the comprehension does not shadow reach the module.
        for k in list(env):
            if k not in bound and inner.get(k, _U) is not env[k]:
                del env[k]

    def call(self, e, env, reach, depth):
        f = e.func
        if type(f) is ast.Attribute:
            self.expr(f.value, env, reach, depth + 1)
        elif type(f) is not ast.Name:
            self.expr(f, env, reach, depth + 1)
        for a in e.args:
            self.expr(a, env, reach, depth + 1)
        for k in e.keywords:
            self.expr(k.value, env, reach, depth + 1)
        s = self.s
        if type(f) is ast.Name and f.id in s.tools and f.id not in s.rebound:
            if not s.tools[f.id]:
                s.wrote(s.effects.call_writes(e))   # after its arguments, wherever reached
            known = None
            if not e.args and all(k.arg is not None for k in e.keywords):
                known = {k.arg: self.value(k.value, env) for k in e.keywords}
                if any(v is _U for v in known.values()):
                    known = None
            if known is None:
                if s.implicit:
                    self.barrier(env)      # encoding user objects may call their methods
            elif reach and s.tools[f.id]:
                s.prepare_call(f.id, known)
            return
        if type(f) is ast.Name and reach and f.id in _APPLYING and s.usable(f.id):
            self.apply_lambda(e, env, depth)
        if type(f) is ast.Name and f.id in _SAFE_BUILTINS and s.usable(f.id) \
                and all(k.arg in _SAFE_BUILTINS[f.id] for k in e.keywords):
            if s.implicit:
                if f.id == "print":
                    unknown = any(self.value(a, env) is _U for a in e.args)
                else:
                    unknown = self.value(e, env) is _U
                if unknown:
                    self.barrier(env)      # __str__, __len__... of a user object
            return
        if type(f) is ast.Attribute:
            obj = self.value(f.value, env)
            if f.attr in _PURE_METHODS and (obj is not _U or not s.reflective):
                if s.implicit and (obj is _U or self.value(e, env) is _U):
                    self.barrier(env)
                return
            if f.attr in _MUTATING_METHODS and obj is not _U and not s.implicit \
                    and all(k.arg == "reverse" for k in e.keywords):
                self.mutated(env, obj)
                return
        if type(f) is ast.Name and reach and f.id in s.functions:
            self.follow_function(s.functions[f.id], e, env, depth)
        self.barrier(env, s.effects.call_writes(e))

    def follow_function(self, fdef, e, env, depth):
        """A call of a function of the program: follow its body, where its
        arguments are known, in a scope of its own (the module's known values
        less its locals, its parameters bound to what the call passes), so
        the calls it makes with known arguments start (`research(q)` over
        known questions). What it changes is then forgotten by the barrier
        the caller applies, as for any call of the program's code."""
        if self.inlined >= MAX_INLINE or depth + len(fdef.body) > MAX_DEPTH \
                or any(type(a) is ast.Starred for a in e.args) or any(k.arg is None for k in e.keywords):
            return
        a = fdef.args
        positional = a.posonlyargs + a.args
        if len(e.args) > len(positional):
            return
        scope = {k: v for k, v in env.items() if k not in _locals(fdef)}
        given = {p.arg: arg for p, arg in zip(positional, e.args)}
        for k in e.keywords:
            given[k.arg] = k.value
        defaults = dict(zip([p.arg for p in positional[len(positional) - len(a.defaults):]], a.defaults))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        for p in positional + a.kwonlyargs:
            value = _U
            if p.arg in given:
                value = self.value(given[p.arg], env)
            elif type(defaults.get(p.arg)) is ast.Constant:
                value = defaults[p.arg].value
            self.bind(scope, p.arg, value)
        self.inlined += 1
        try:
            self.block(fdef.body, scope, depth + 1)
        finally:
            self.inlined -= 1

    def apply_lambda(self, e, env, depth):
        """`sorted(xs, key=lambda x: ...)`, `min`/`max` likewise, `map(lambda
        x: ..., xs)`, `filter(...)`: the lambda runs for every item of xs, so
        over a known sequence its body is followed once per item."""
        name = e.func.id
        if name in ("sorted", "min", "max") and len(e.args) == 1:
            function = next((k.value for k in e.keywords if k.arg == "key"), None)
            items = e.args[0]
        elif name in ("map", "filter") and len(e.args) == 2 and not e.keywords:
            function, items = e.args
        else:
            return
        if type(function) is not ast.Lambda:
            return
        a = function.args
        if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or len(a.args) != 1:
            return
        seq = self.value(items, env)
        if type(seq) not in (list, tuple, str, dict) or not self.unroll(len(seq)):
            return
        param = a.args[0].arg
        for item in list(seq):
            scope = dict(env)
            self.bind(scope, param, item)
            self.expr(function.body, scope, True, depth + 1)


# --- Prepared calls ------------------------------------------------------------

class Pool:
    """Prepared handles by canonical request; first prepared, first claimed.

    A map, not a queue: the final execution's calls need not come in the
    order prefix prepared them (PLM reorders, a branch skips one), and a
    claim must find its request wherever it is, never take the head of a
    queue that belongs to another call.
    """

    def __init__(self):
        self._by_request = {}
        self._live = {}            # handle -> request, in prepare order

    def add(self, request, handle):
        self._by_request.setdefault(request, collections.deque()).append(handle)
        self._live[handle] = request

    def claim(self, request):
        queue = self._by_request.get(request)
        if not queue:
            return None
        handle = queue.popleft()
        if not queue:
            del self._by_request[request]
        self._live.pop(handle, None)
        return handle

    def unclaimed(self):
        return list(self._live)

    def clear(self):
        self._by_request.clear()
        self._live.clear()


# --- The stream --------------------------------------------------------------

class Budget:
    """What the analysis of one stream may spend; prefix_begin's "budget" object
    may set each field (the host derives them from the execution's limits):

    - `statement_steps`: walker and evaluator steps for one top-level statement;
    - `statement_ms`: wall time for one top-level statement;
    - `stream_ms`: wall time of all analysis of the stream (scanning, parsing,
      following). Once spent, analysis stops: nothing more starts early.

    Past a statement's budget the statement is given up (nothing of it starts
    early); the program itself is never affected.
    """

    def __init__(self, fields=None):
        fields = fields if isinstance(fields, dict) else {}

        def pick(name, default):
            value = fields.get(name)
            ok = type(value) in (int, float) and value >= 0 and value == value
            return value if ok else default
        self.statement_steps = int(pick("statement_steps", STATEMENT_STEPS))
        self.statement_seconds = pick("statement_ms", STATEMENT_MS) / 1000
        self.stream_seconds = pick("stream_ms", STREAM_MS) / 1000

class Prefix:
    """The state of one streamed program (see the module docstring).

    `feed` never raises and never runs user code. `source`, `inputs` and
    `manifest` are what the final execution runs; `claim` hands it the
    prepared calls; `unclaimed` / `close` give the host what to cancel.
    `stats` counts parsing work (for the linearity test) and says why
    analysis stopped, if it did.
    """

    def __init__(self, inputs, manifest, prepare, *, max_prepares=256, max_statements=20000, budget=None):
        self.inputs = inputs
        self.manifest = manifest
        self._prepare = prepare
        self._max_prepares = max_prepares
        self._max_statements = max_statements
        self.tools = {}                    # name -> speculative
        for spec in manifest if isinstance(manifest, list) else ():
            if isinstance(spec, dict) and isinstance(spec.get("name"), str):
                self.tools[spec["name"]] = spec.get("speculative") is True
        tool_effects = ToolEffects(manifest)
        self.tool_reads = tool_effects.reads
        self.effects = ProgramEffects(tool_effects)   # of the statements received so far
        self.written = NOTHING             # what the program may have written so far
        self.rebound = set()               # module names bound by the program so far
        self.functions = {}                # name -> its `def`, for names only that def binds
        self.poisoned = set()              # names some function declares global
        self.reflective = False
        self.implicit = False
        self.budget = Budget(budget)
        self.meter = Meter(self.budget.statement_steps)
        self.evaluator = Evaluator(self.usable, self.meter)
        self._deferred = []                # requests of the statement being followed
        self._feed_deadline = 0.0
        self._walker = _Walker(self)
        self._env = {"inputs": inputs}
        self._pool = Pool()
        self._parts = []                   # the source, as received
        self._source = ""
        self._pending = []                 # text from offset _pending_at on
        self._pending_at = 0
        self._splitter = _Splitter()
        self._decoder = None
        self._stuck = -1                   # offset of an unparseable region
        self._stuck_tried = 0
        self._stuck_tries = 0
        self._closed = False
        self.stopped = None                # why analysis stopped, if it did
        self.stats = {"parse_calls": 0, "parsed_bytes": 0, "statements": 0, "prepared": 0,
                      "iterations": 0, "given_up": 0, "held_back": 0, "analysis_seconds": 0.0}

    # -- public

    @property
    def source(self):
        if self._parts:
            self._source += "".join(self._parts)
            self._parts = []
        return self._source

    def feed(self, chunk):
        """Append `chunk` and analyse the statements it completes."""
        if self._closed:
            return
        try:
            if isinstance(chunk, (bytes, bytearray, memoryview)):
                if self._decoder is None:
                    self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
                chunk = self._decoder.decode(bytes(chunk))
            if not isinstance(chunk, str) or not chunk:
                return
            self._parts.append(chunk)
            if self.stopped is not None:
                return
            self._pending.append(chunk)
            started = time.monotonic()
            self._feed_deadline = started + self.budget.stream_seconds - self.stats["analysis_seconds"]
            try:
                spans = self._splitter.feed(chunk)
                if spans:
                    self._analyse(spans)   # every span precedes a broken line
            finally:
                self.stats["analysis_seconds"] += time.monotonic() - started
            if self._splitter.broken and self.stopped is None:
                self._stop("an indented line outside any statement")
            if self.stats["analysis_seconds"] >= self.budget.stream_seconds and self.stopped is None:
                self._stop("the stream's analysis budget is spent")
        except Exception as error:         # defensive: the stream must survive
            self._stop(f"internal: {type(error).__name__}")
        except OverBudget:                 # spent outside a statement (scanning, parsing)
            self._stop("the stream's analysis budget is spent")

    def claim(self, request):
        """The handle of a prepared call with exactly this request, or None."""
        if not isinstance(request, str):
            return None
        return self._pool.claim(request)

    def unclaimed(self):
        """Handles prepared and never claimed, in prepare order."""
        return self._pool.unclaimed()

    def close(self):
        """End the stream's analysis; return (and forget) the unclaimed handles."""
        self._closed = True
        self._pending = []
        left = self._pool.unclaimed()
        self._pool.clear()
        self._env = {}
        return left

    # -- used by the walker

    def usable(self, name):
        """The builtin `name` still means the builtin here."""
        return name not in self.rebound and name not in self.tools

    def wrote(self, writes):
        """The program, at the point being followed, may have written `writes`."""
        if writes and not writes <= self.written:
            self.written = self.written | writes

    def prepare_call(self, name, args):
        """Note a call to start once the statement is followed within its budget.

        Effects order reads: a call that follows, in program order, a call
        that may write what it reads is not started during arrival; the
        final execution (PLM) starts it once that call has run.
        """
        if conflict(self.tool_reads.get(name, EVERYTHING), self.written):
            self.stats["held_back"] += 1
            return
        if self.stats["prepared"] + len(self._deferred) >= self._max_prepares:
            return
        if not request_ok(args, self.meter):
            return                         # not plain data, or too big to encode early
        try:
            request = encode_request(name, args)
        except Exception:                  # not JSON: the real call reports it
            return
        self._deferred.append(request)

    def _start(self, request):
        try:
            handle = self._prepare(request)
        except Exception:                  # the host declined; the call runs normally
            return
        if type(handle) is int and handle:
            self.stats["prepared"] += 1
            self._pool.add(request, handle)

    # -- analysis

    def _stop(self, why):
        self.stopped = why
        self._pending = []

    def _analyse(self, spans):
        """Parse and follow each completed span, in order, with one join."""
        text = "".join(self._pending)
        at = self._pending_at
        for a, b, depth in spans:
            if self.stopped is not None:
                return
            self._segment(text, at, a, b, depth)
        if self.stopped is not None:
            return
        keep = self._splitter.needed()
        if self._stuck >= 0:
            keep = min(keep, self._stuck)
        self._pending = [text[keep - at:]]
        self._pending_at = keep

    def _segment(self, text, at, a, b, depth):
        """One complete statement [a, b). A syntax error waits for more input:
        the unparseable region grows with later statements and is retried only
        when it has doubled, so retrying costs at most twice the source."""
        if depth > MAX_BRACKETS:
            self._stop("nesting too deep")
            return
        if self._stuck < 0:
            tree = self._parse(text[a - at:b - at])
            if tree is None:
                self._stuck, self._stuck_tried, self._stuck_tries = a, b - a, 1
                return
        else:
            size = b - self._stuck
            if size < 2 * self._stuck_tried:
                return
            tree = self._parse(text[self._stuck - at:b - at])
            if tree is None:
                self._stuck_tried = size
                self._stuck_tries += 1
                if self._stuck_tries >= MAX_RETRIES:
                    self._stop("a syntax error that more input did not resolve")
                return
            self._stuck = -1
        if tree is not None:
            self._run(tree)

    def _parse(self, text):
        self.stats["parse_calls"] += 1
        self.stats["parsed_bytes"] += len(text)
        try:
            return ast.parse(text)
        except (RecursionError, MemoryError):
            self._stop("too deep to parse")
        except Exception:                  # SyntaxError, ValueError (NUL bytes)
            pass
        return None

    def _run(self, tree):
        for stmt in tree.body:
            self.stats["statements"] += 1
            if self.stats["statements"] > self._max_statements:
                self._stop("too many statements")
                return
            try:
                if not self._note(stmt):
                    return
                ends = self._follow(stmt)
            except (RecursionError, MemoryError):
                self._stop("too deep to follow")
                return
            if ends:
                self._stop("the rest of the program cannot run")
                return
            if self.stopped is not None:
                return

    def _follow(self, stmt):
        """Follow one top-level statement within its budget, then start its calls.

        Past the budget (steps, the statement's time, or what is left of the
        stream's), the statement is given up: none of its calls start, and
        every value it could have changed is forgotten, as after opaque code.
        Returns True when the statement certainly does not complete normally.
        """
        now = time.monotonic()
        if now >= self._feed_deadline:
            self._stop("the stream's analysis budget is spent")
            return False
        self.meter.left = self.budget.statement_steps
        self.meter.deadline = min(now + self.budget.statement_seconds, self._feed_deadline)
        self._deferred = []
        try:
            ends = self._walker.stmt(stmt, self._env, 0)
        except OverBudget:
            self._deferred = []
            self.stats["given_up"] += 1
            self.meter.left, self.meter.deadline = 1 << 62, None   # forgetting must not run out
            self._walker.barrier(self._env, self.effects.writes_within(stmt))   # nor were its effects
            for name in _module_bindings(stmt)[0]:
                self._env.pop(name, None)
            if time.monotonic() >= self._feed_deadline:
                self._stop("the stream's analysis budget is spent")
            return False
        for request in self._deferred:
            self._start(request)
        self._deferred = []
        return bool(ends)

    def _note(self, stmt):
        """Record what `stmt` may rebind and enable; False when analysis must stop."""
        bound, declared, star = _module_bindings(stmt)
        if star:
            self._stop("a star import binds names we cannot see")
            return False
        for name in bound | declared:
            self.functions.pop(name, None)
        if (type(stmt) is ast.FunctionDef and not stmt.decorator_list and stmt.name not in self.rebound
                and not is_generator(stmt)):
            self.functions[stmt.name] = stmt
        self.rebound |= bound | declared
        if declared:
            self.poisoned |= declared
            for name in declared:
                self._env.pop(name, None)
        reflective, implicit = _scan_flags(stmt)
        self.reflective |= reflective
        self.implicit |= implicit
        self.effects.add(stmt)
        return True
