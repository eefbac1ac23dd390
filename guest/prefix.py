"""Prefix streaming: start speculative tool calls while the program is arriving.

A model streams its program; `Prefix.feed` receives it chunk by chunk. Each
top-level statement is analysed once, as soon as it is complete, and every call
to a speculative tool whose keyword arguments are already known (constants,
`inputs`, names assigned from them) is handed to the host's `prepare`. When the
stream ends, bootstrap runs the whole source with PLM, and each call first
tries `claim(request)` for a handle prepared here.

Nothing here ever runs user code: the source is only scanned and given to
`ast.parse`; "known" values are computed by a small evaluator over plain data.
A wrong guess is harmless by construction: only speculative (side-effect free)
tools are prepared, and a prepared call is used only by a call whose canonical
request string is identical, so a guess that does not match costs one wasted
call and nothing else. The analysis is still conservative, so that waste stays
rare. See PREFIX_RATIONALE.md for the choices.

The pieces, in the order data flows:
- `_Splitter`: a character state machine that cuts the growing source into
  complete top-level statements (brackets, strings, comments, continuations,
  decorators, `elif`/`else`/`except`/`finally`).
- `Prefix._segment`: parses each complete statement once; a syntax error
  waits for more input with a geometric back-off, so the retry work is linear.
- `_note` / `_module_bindings`: what a statement may rebind, and whether the
  program may now run code we cannot see (reflection, implicit dunder calls).
- `_Evaluator`: known values of expressions over plain data, with size guards.
- `_Walker`: follows statements in evaluation order, keeps the known-value
  environment, applies barriers after opaque code, prepares calls.
- `_Pool`: prepared handles by request, first prepared first claimed.
"""
import ast
import codecs
import collections
import re

from protocol import encode_request

__all__ = ["Prefix"]

_U = type("Unknown", (), {"__repr__": lambda self: "<unknown>", "__slots__": ()})()
"""The value of an expression not known before execution."""

MAX_DEPTH = 80            # expression / block nesting followed by the walker
MAX_BRACKETS = 100        # bracket depth above which a statement is not parsed
MAX_LEN = 1 << 16         # elements or characters of a value built here
MAX_BITS = 1 << 14        # bits of an integer built here
MAX_RETRIES = 8           # parse attempts of one unparseable region
MAX_UNROLL = 64           # iterations of a loop over a known sequence followed
UNROLL_BUDGET = 2048      # ... and in all, per stream (nested loops multiply)
REACH_BUDGET = 20000      # nodes walked to decide whether a value contains another


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


# Names through which code reaches namespaces, frames or arbitrary attributes.
_REFLECTIVE_NAMES = frozenset({
    "globals", "locals", "vars", "exec", "eval", "compile", "__import__",
    "getattr", "setattr", "delattr", "breakpoint", "__builtins__", "help",
})
# Attributes that reach frames, code, namespaces (dunders, frame/generator fields).
_REFLECTIVE_ATTRS = ("__", "f_", "gi_", "cr_", "ag_", "tb_", "co_")
# Names that let user code run implicitly later (lazy callbacks, new classes).
_IMPLICIT_NAMES = frozenset({"type", "map", "filter", "iter", "__build_class__", "property"})
# Imports that neither expose frames/namespaces nor create lazy callbacks.
_SAFE_MODULES = frozenset({
    "math", "json", "re", "statistics", "string", "textwrap", "datetime",
    "decimal", "fractions", "time", "random", "heapq", "bisect", "cmath",
})


def _scan_flags(node):
    """(reflective, implicit) for `node`: may the program now reach namespaces
    or frames, or run its own code without a visible call?"""
    reflective = implicit = False
    for n in ast.walk(node):
        t = type(n)
        if t is ast.Name:
            if n.id in _REFLECTIVE_NAMES:
                reflective = True
            elif n.id in _IMPLICIT_NAMES:
                implicit = True
        elif t is ast.Attribute:
            if n.attr.startswith(_REFLECTIVE_ATTRS):
                reflective = True
            if not isinstance(n.ctx, ast.Load):
                implicit = True            # functions with attributes become callables
        elif t is ast.ClassDef or t is ast.GeneratorExp or t is ast.Yield or t is ast.YieldFrom:
            implicit = True
        elif t is ast.Import:
            if any(a.name.split(".")[0] not in _SAFE_MODULES for a in n.names):
                reflective = implicit = True
        elif t is ast.ImportFrom:
            if n.level or (n.module or "").split(".")[0] not in _SAFE_MODULES:
                reflective = implicit = True
    return reflective, implicit


# --- Known values ------------------------------------------------------------

_SCALARS = (type(None), bool, int, float, str)
_PLAIN = frozenset({type(None), bool, int, float, str, list, tuple, dict})
_SEQUENCES = (str, list, tuple)

_BINOPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b, ast.BitOr: lambda a, b: a | b,
    ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b,
}
_CMPOPS = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_FORMAT_SPEC = re.compile(r"(?:.?[<>^=])?[+\- ]?z?#?0?\d{0,3}[,_]?(?:\.\d{1,3})?[bcdeEfFgGnosxX%]?\Z")


def _bits(x):
    return abs(int(x)).bit_length()


def _size_ok(v):
    return not (isinstance(v, (str, list, tuple, dict)) and len(v) > MAX_LEN) and \
        not (type(v) is int and v.bit_length() > MAX_BITS)


def _binop(op, a, b):
    """`a op b` over plain values, refusing anything that could blow up."""
    ta, tb = type(a), type(b)
    if ta not in _PLAIN or tb not in _PLAIN or op not in _BINOPS:
        return _U
    ints = ta in (int, bool) and tb in (int, bool)
    if op is ast.Mult:
        if ta in (str, list, tuple) and tb in (int, bool):
            if len(a) * max(int(b), 0) > MAX_LEN:
                return _U
        elif tb in (str, list, tuple) and ta in (int, bool):
            if len(b) * max(int(a), 0) > MAX_LEN:
                return _U
        elif ints and _bits(a) + _bits(b) > MAX_BITS:
            return _U
    elif op is ast.Add and ta in _SEQUENCES and tb in _SEQUENCES:
        if len(a) + len(b) > MAX_LEN:
            return _U
    elif op is ast.Pow and ints:
        if b > 0 and abs(a) > 1 and _bits(a) * b > MAX_BITS:
            return _U
    elif op is ast.LShift and ints:
        if b > MAX_BITS or _bits(a) + b > MAX_BITS:
            return _U
    elif op is ast.Mod and ta is str:
        return _U                         # printf formatting: widths are unbounded
    v = _BINOPS[op](a, b)
    return v if _size_ok(v) else _U


def _call_builtin(name, args, kwargs):
    """A pure builtin over plain arguments, or _U."""
    if any(type(a) not in _PLAIN for a in args) or any(type(v) not in _PLAIN for v in kwargs.values()):
        return _U
    if name == "len":
        return len(*args) if len(args) == 1 and type(args[0]) in (str, list, tuple, dict) else _U
    if name in ("str", "repr"):
        if len(args) != 1 or kwargs:
            return _U
        v = (str if name == "str" else repr)(args[0])
        return v if _size_ok(v) else _U
    if name == "round":
        if len(args) == 2 and (type(args[1]) is not int or abs(args[1]) > 100):
            return _U
        return round(*args)
    if name in ("list", "tuple"):
        if len(args) > 1 or kwargs:
            return _U
        return (list if name == "list" else tuple)(*args)
    if name == "sum":
        if len(args) != 1 or kwargs or type(args[0]) not in (list, tuple):
            return _U
        if not all(type(x) in (int, float, bool) for x in args[0]):
            return _U
        v = sum(args[0])
        return v if _size_ok(v) else _U
    fn = {"int": int, "float": float, "bool": bool, "abs": abs, "min": min,
          "max": max, "sorted": sorted}.get(name)
    if fn is None:
        return _U
    if name == "int" and (kwargs or len(args) > 1):
        return _U
    return fn(*args, **kwargs)


def _call_method(obj, attr, args):
    """A non-mutating method of a known plain object, or _U."""
    t = type(obj)
    if any(type(a) not in _PLAIN for a in args):
        return _U
    if t is dict:
        if attr == "get" and 1 <= len(args) <= 2:
            return obj.get(*args)
        if attr == "copy" and not args:
            return obj.copy()
        return _U
    if t in (list, tuple):
        if attr in ("index", "count"):
            return getattr(obj, attr)(*args)
        if attr == "copy" and t is list and not args:
            return obj.copy()
        return _U
    if t is not str or attr not in _STR_METHODS:
        return _U
    if attr == "replace":
        if len(args) < 2 or type(args[0]) is not str or type(args[1]) is not str:
            return _U
        pieces = len(obj) + 1 if not args[0] else len(obj) // len(args[0]) + 1
        if len(obj) + pieces * len(args[1]) > MAX_LEN:
            return _U
    if attr in ("zfill", "center", "ljust", "rjust") and (not args or type(args[0]) is not int or args[0] > MAX_LEN):
        return _U
    v = getattr(obj, attr)(*args)
    return v if _size_ok(v) else _U


_STR_METHODS = frozenset({
    "upper", "lower", "strip", "lstrip", "rstrip", "split", "rsplit", "join",
    "startswith", "endswith", "replace", "title", "capitalize", "casefold",
    "count", "find", "rfind", "isdigit", "isalpha", "isalnum", "isspace",
    "islower", "isupper", "zfill", "center", "ljust", "rjust", "removeprefix",
    "removesuffix", "splitlines", "swapcase", "isnumeric", "isdecimal",
})
# Methods that never mutate their object nor call user code on builtin types.
_PURE_METHODS = _STR_METHODS | frozenset({
    "get", "copy", "index", "keys", "values", "items", "format", "encode", "decode",
    "isoformat", "hex", "bit_length", "is_integer",
})
# Mutating methods of builtin containers: they change only their own object.
_MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
    "update", "setdefault", "popitem", "add", "discard",
})
# Builtins that are pure given plain arguments (`print` has no value but no
# effect on guest values), with the keywords each may take safely.
_SAFE_BUILTINS = {
    "len": (), "str": (), "repr": (), "int": (), "float": (), "bool": (),
    "abs": (), "round": ("ndigits",), "min": ("default",), "max": ("default",),
    "sorted": ("reverse",), "sum": (), "list": (), "tuple": (),
    "print": ("sep", "end", "flush"), "isinstance": (),
    # Pure, but not evaluated here (their values are not plain data):
    "range": (), "enumerate": ("start",), "zip": (), "reversed": (), "any": (),
    "all": (), "chr": (), "ord": (), "divmod": (), "set": (), "frozenset": (),
    "hex": (), "bin": (), "oct": (),
}


class _Evaluator:
    """Known values of expressions: constants, known names, and plain operations.

    Returns _U for anything else. Only ever operates on values it built itself
    from constants and `inputs` (decoded JSON), so no user code can run; size
    guards stop `"a" * 10**12`, `2 ** 10**10` and their kind before they
    allocate. Identity is preserved where Python preserves it (`inputs["a"]`
    is the object inside `inputs`), which the aliasing rules rely on.
    """

    def __init__(self, usable):
        self.usable = usable          # usable(name) -> the builtin `name` is unshadowed

    def value(self, node, env, depth=0):
        try:
            return self._value(node, env, depth)
        except Exception:             # TypeError, ValueError, RecursionError, MemoryError...
            return _U

    def _value(self, node, env, depth):
        if depth > MAX_DEPTH:
            return _U
        depth += 1
        t = type(node)
        if t is ast.Constant:
            return node.value
        if t is ast.Name:
            return env.get(node.id, _U) if isinstance(node.ctx, ast.Load) else _U
        if t in (ast.List, ast.Tuple, ast.Set):
            items = []
            for e in node.elts:
                if type(e) is ast.Starred:
                    v = self._value(e.value, env, depth)
                    if type(v) not in (list, tuple, str) or len(items) + len(v) > MAX_LEN:
                        return _U
                    items.extend(v)
                else:
                    v = self._value(e, env, depth)
                    if v is _U:
                        return _U
                    items.append(v)
            return items if t is ast.List else tuple(items) if t is ast.Tuple else set(items)
        if t is ast.Dict:
            d = {}
            for k, v in zip(node.keys, node.values):
                vv = self._value(v, env, depth)
                if vv is _U:
                    return _U
                if k is None:
                    if type(vv) is not dict:
                        return _U
                    d.update(vv)
                else:
                    kv = self._value(k, env, depth)
                    if kv is _U or type(kv) not in _SCALARS:
                        return _U
                    d[kv] = vv
            return d
        if t is ast.BinOp:
            a = self._value(node.left, env, depth)
            b = self._value(node.right, env, depth) if a is not _U else _U
            return _U if b is _U else _binop(type(node.op), a, b)
        if t is ast.UnaryOp:
            v = self._value(node.operand, env, depth)
            op = type(node.op)
            if op is ast.Not:
                return _U if v is _U or type(v) not in _PLAIN else (not v)
            if type(v) not in (int, float, bool):
                return _U
            if op is ast.USub:
                return -v
            if op is ast.UAdd:
                return +v
            return ~v if type(v) is not float else _U
        if t is ast.BoolOp:
            v = _U
            for e in node.values:
                v = self._value(e, env, depth)
                if v is _U or type(v) not in _PLAIN:
                    return _U
                if bool(v) == (type(node.op) is ast.Or):
                    return v
            return v
        if t is ast.Compare:
            left = self._value(node.left, env, depth)
            for op, right in zip(node.ops, node.comparators):
                r = self._value(right, env, depth)
                if left is _U or r is _U or type(left) not in _PLAIN or type(r) not in _PLAIN:
                    return _U
                if type(op) in (ast.Is, ast.IsNot) and not (
                        type(left) in (type(None), bool) or type(r) in (type(None), bool)):
                    return _U              # identity of other objects is the runtime's choice
                if not _CMPOPS[type(op)](left, r):
                    return False
                left = r
            return True
        if t is ast.IfExp:
            test = self._value(node.test, env, depth)
            if test is _U or type(test) not in _PLAIN:
                return _U
            return self._value(node.body if test else node.orelse, env, depth)
        if t is ast.Subscript:
            obj = self._value(node.value, env, depth)
            if type(obj) not in (list, tuple, str, dict):
                return _U
            key = self._value(node.slice, env, depth)
            if type(key) is slice:
                if type(obj) is dict:
                    return _U
            elif type(key) not in _SCALARS:
                return _U
            return obj[key]
        if t is ast.Slice:
            parts = [None if p is None else self._value(p, env, depth)
                     for p in (node.lower, node.upper, node.step)]
            if any(p is not None and type(p) not in (int, bool) for p in parts):
                return _U
            return slice(*parts)
        if t is ast.JoinedStr:
            out = []
            for part in node.values:
                v = self._value(part, env, depth)
                if type(v) is not str:
                    return _U
                out.append(v)
            v = "".join(out)
            return v if _size_ok(v) else _U
        if t is ast.FormattedValue:
            v = self._value(node.value, env, depth)
            if type(v) not in _PLAIN:
                return _U
            if node.conversion in (ord("r"), ord("s"), ord("a")):
                v = {ord("r"): repr, ord("s"): str, ord("a"): ascii}[node.conversion](v)
            spec = "" if node.format_spec is None else self._value(node.format_spec, env, depth)
            if type(spec) is not str or not _FORMAT_SPEC.match(spec):
                return _U
            v = format(v, spec)
            return v if _size_ok(v) else _U
        if t is ast.Call:
            return self._call(node, env, depth)
        return _U

    def _call(self, node, env, depth):
        f = node.func
        if any(type(a) is ast.Starred for a in node.args) or any(k.arg is None for k in node.keywords):
            return _U
        args = [self._value(a, env, depth) for a in node.args]
        kwargs = {k.arg: self._value(k.value, env, depth) for k in node.keywords}
        if _U in args or _U in kwargs.values():
            return _U
        if type(f) is ast.Name:
            if f.id == "print" or not self.usable(f.id):
                return _U
            if any(k not in _SAFE_BUILTINS[f.id] for k in kwargs):
                return _U
            v = _call_builtin(f.id, args, kwargs)
        elif type(f) is ast.Attribute and not kwargs:
            obj = self._value(f.value, env, depth)
            if obj is _U:
                return _U
            v = _call_method(obj, f.attr, args)
        else:
            return _U
        return v if v is _U or _size_ok(v) else _U


def _frozen(v, budget=1000):
    """Deeply immutable (so no code can change it without rebinding a name)."""
    stack = [v]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        x = stack.pop()
        if type(x) is tuple:
            stack.extend(x)
        elif type(x) not in (type(None), bool, int, float, str, bytes, complex):
            return False
    return True


def _reaches(v, target):
    """Whether `target` is `v` or inside it (True when the walk is too long)."""
    stack, budget = [v], REACH_BUDGET
    while stack:
        x = stack.pop()
        if x is target:
            return True
        t = type(x)
        if t in (list, tuple, set):
            stack.extend(x)
        elif t is dict:
            stack.extend(x.values())
        else:
            continue
        budget -= 1
        if budget < 0:
            return True
    return False


# --- Following the program ---------------------------------------------------

_TERMINATORS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


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

    # -- environment effects

    def barrier(self, env):
        """Code we cannot see may have run: forget what it could have changed."""
        if self.s.reflective:
            env.clear()
        else:
            for k in [k for k, v in env.items() if not _frozen(v)]:
                del env[k]

    def mutated(self, env, obj):
        """The known object `obj` was changed in place: forget names that reach it."""
        for k in [k for k, v in env.items() if _reaches(v, obj)]:
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
        for s in body:
            self.stmt(s, env, depth)
            if isinstance(s, _TERMINATORS):
                break                      # the rest of the block is unreachable

    def stmt(self, s, env, depth):
        if depth > MAX_DEPTH:
            self.barrier(env)
            for name in _module_bindings(s)[0]:
                env.pop(name, None)
            return
        t = type(s)
        handler = getattr(self, "s_" + t.__name__, None)
        if handler is not None:
            handler(s, env, depth)
            return
        # Anything else (unknown to this walker): assume the worst.
        for child in ast.iter_child_nodes(s):
            if isinstance(child, ast.expr):
                self.expr(child, env, False, depth + 1)
        self.barrier(env)
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
            elif _frozen(cur):
                r = self.value(s.value, env)
                self.bind(env, tg.id, _U if r is _U else _binop(type(s.op), cur, r))
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
        if s.msg is not None:
            self.expr(s.msg, env, False, depth + 1)

    def s_Raise(self, s, env, depth):
        for e in (s.exc, s.cause):
            if e is not None:
                self.expr(e, env, True, depth + 1)

    def s_Return(self, s, env, depth):
        if s.value is not None:
            self.expr(s.value, env, True, depth + 1)

    def s_If(self, s, env, depth):
        self.expr(s.test, env, True, depth + 1)
        self.implicit_check(s.test, env)
        test = self.value(s.test, env)
        if test is not _U:
            # The branch is decided before execution: follow it as straight-line code.
            self.block(s.body if test else s.orelse, env, depth + 1)
            return
        branches = []
        for body in (s.body, s.orelse):
            b = dict(env)
            self.block(body, b, depth + 1)
            branches.append(b)
        self.merge(env, branches)

    def s_For(self, s, env, depth):
        self.expr(s.iter, env, True, depth + 1)
        self.implicit_check(s.iter, env)
        seq = self.value(s.iter, env)
        # The first iteration starts from exactly the current values; names the
        # loop binds are forgotten after it (it may run any number of times).
        bound = _module_bindings(s)[0]
        body = dict(env)
        if type(seq) in (list, tuple, str, dict) and self.unroll(len(seq)):
            # A loop over a known sequence: follow the iterations in order
            # (the iteration sequence is a snapshot; if the body may change it,
            # the barrier has forgotten it and we stop following).
            holders = [k for k, v in body.items() if _reaches(v, seq)]
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
        bound = _module_bindings(s)[0]
        body = dict(env)
        self.block(s.body, body, depth + 1)
        self.block(s.orelse, body, depth + 1)
        self.merge(env, [body], bound)

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
        self.barrier(env)                  # the class body runs now
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
        if depth > MAX_DEPTH:
            self.barrier(env)
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
            known = None
            if not e.args and all(k.arg is not None for k in e.keywords):
                known = {k.arg: self.value(k.value, env) for k in e.keywords}
                if _U in known.values():
                    known = None
            if known is None:
                if s.implicit:
                    self.barrier(env)      # encoding user objects may call their methods
            elif reach and s.tools[f.id]:
                s.prepare_call(f.id, known)
            return
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
        self.barrier(env)


# --- Prepared calls ------------------------------------------------------------

class _Pool:
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

class Prefix:
    """The state of one streamed program (see the module docstring).

    `feed` never raises and never runs user code. `source`, `inputs` and
    `manifest` are what the final execution runs; `claim` hands it the
    prepared calls; `unclaimed` / `close` give the host what to cancel.
    `stats` counts parsing work (for the linearity test) and says why
    analysis stopped, if it did.
    """

    def __init__(self, inputs, manifest, prepare, *, max_prepares=256, max_statements=20000):
        self.inputs = inputs
        self.manifest = manifest
        self._prepare = prepare
        self._max_prepares = max_prepares
        self._max_statements = max_statements
        self.tools = {}                    # name -> speculative
        for spec in manifest if isinstance(manifest, list) else ():
            if isinstance(spec, dict) and isinstance(spec.get("name"), str):
                self.tools[spec["name"]] = spec.get("speculative") is True
        self.rebound = set()               # module names bound by the program so far
        self.poisoned = set()              # names some function declares global
        self.reflective = False
        self.implicit = False
        self.evaluator = _Evaluator(self.usable)
        self._walker = _Walker(self)
        self._env = {"inputs": inputs}
        self._pool = _Pool()
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
                      "iterations": 0}

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
            spans = self._splitter.feed(chunk)
            if spans:
                self._analyse(spans)       # every span precedes a broken line
            if self._splitter.broken and self.stopped is None:
                self._stop("an indented line outside any statement")
        except Exception as error:         # defensive: the stream must survive
            self._stop(f"internal: {type(error).__name__}")

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

    def prepare_call(self, name, args):
        if self.stats["prepared"] >= self._max_prepares:
            return
        try:
            request = encode_request(name, args)
        except Exception:                  # not JSON: the real call reports it
            return
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
                self._walker.stmt(stmt, self._env, 0)
            except (RecursionError, MemoryError):
                self._stop("too deep to follow")
                return

    def _note(self, stmt):
        """Record what `stmt` may rebind and enable; False when analysis must stop."""
        bound, declared, star = _module_bindings(stmt)
        if star:
            self._stop("a star import binds names we cannot see")
            return False
        self.rebound |= bound | declared
        if declared:
            self.poisoned |= declared
            for name in declared:
                self._env.pop(name, None)
        reflective, implicit = _scan_flags(stmt)
        self.reflective |= reflective
        self.implicit |= implicit
        return True
