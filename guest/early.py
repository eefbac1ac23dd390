"""Early evaluation: the one closed set of operations run ahead of the program.

PLM evaluates a speculative call's arguments before the program reaches the
call, and prefix streaming evaluates known expressions while the program is
still arriving. Neither may run the program's code, change its state, or cost
more than the program itself would. Both go through `Evaluator`, which
accepts a closed set of AST operations (constants, names, displays,
operators, comparisons, subscripts, f-strings, the builtins of
`BUILTIN_KEYWORDS` and the methods of `METHODS`) and applies one only when its
operands are plain data: values whose exact type is None, bool, int, float,
str, list, tuple or dict (never a subclass, a generator, a map, a user
object). Builtin operations on such values run no Python code, so nothing the
program defined can run, however the names were bound.

The check is made where the operation looks: shallow (`type(x) in PLAIN`)
for operations that only move references (`+` on lists, `len`, indexing),
deep (`weight`) for those that walk a value (`==`, `in`, `str`, `sorted`,
hashing, `**` merges, JSON encoding of the final arguments). `weight` is also
the size guard: it counts a shared part once per place it appears, which is
what those walks cost, so `[[[0] * 1000] * 1000] * 1000` is refused before
anything walks its 10**9 leaves. Anything refused is `UNKNOWN`: for PLM the
call is not started early, for prefix the value is not known. Neither is an
error of the program.

`Meter` bounds one unit of work (a prepare, a streamed statement) in steps and
wall time; running past it raises `OverBudget`, a BaseException so that no
`except Exception` in between can swallow it.
"""
import ast
import re
import time

UNKNOWN = type("Unknown", (), {"__repr__": lambda self: "<unknown>", "__slots__": ()})()
"""The value of an expression not known (or not evaluated) ahead of the program."""

MAX_DEPTH = 80            # expression nesting followed
MAX_LEN = 1 << 16         # elements or characters of a value built here
MAX_BITS = 1 << 14        # bits of an integer built here
MAX_WEIGHT = 1 << 16      # expanded size of a value a deep operation may walk
PREPARE_STEPS = 1 << 18   # steps of one PLM prepare's evaluation
CLOCK_EVERY = 1024        # steps between two looks at the clock

SCALARS = frozenset({type(None), bool, int, float, str})
CONTAINERS = frozenset({list, tuple, dict})
PLAIN = SCALARS | CONTAINERS
_SEQUENCES = (str, list, tuple)

# Builtins evaluated here, with the keywords each may take. All are pure over
# plain data. `usable(name)` (the caller's) says the name still means it.
BUILTIN_KEYWORDS = {
    "len": (), "str": (), "repr": (), "int": (), "float": (), "bool": (),
    "abs": (), "round": ("ndigits",), "min": ("default",), "max": ("default",),
    "sorted": ("reverse",), "sum": (), "list": (), "tuple": (),
}
_STR_METHODS = frozenset({
    "upper", "lower", "strip", "lstrip", "rstrip", "split", "rsplit", "join",
    "startswith", "endswith", "replace", "title", "capitalize", "casefold",
    "count", "find", "rfind", "isdigit", "isalpha", "isalnum", "isspace",
    "islower", "isupper", "zfill", "center", "ljust", "rjust", "removeprefix",
    "removesuffix", "splitlines", "swapcase", "isnumeric", "isdecimal",
})
# Methods evaluated here: non-mutating methods of plain receivers.
METHODS = _STR_METHODS | frozenset({"get", "copy", "index", "count"})


class OverBudget(BaseException):
    """One unit of early work (a prepare, a streamed statement) ran past its budget."""


class Meter:
    """A budget of steps and, optionally, a wall-clock deadline (time.monotonic)."""

    __slots__ = ("left", "deadline", "_clock_in")

    def __init__(self, steps, deadline=None):
        self.left = steps
        self.deadline = deadline
        self._clock_in = CLOCK_EVERY

    def tick(self, n=1):
        self.left -= n
        if self.left < 0:
            raise OverBudget("step budget")
        self._clock_in -= n
        if self._clock_in <= 0:
            self._clock_in = CLOCK_EVERY
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OverBudget("time budget")


def _scalar_weight(x, t):
    if t is str:
        return 1 + (len(x) >> 6)
    if t is int:
        return 1 + (x.bit_length() >> 6)
    return 1


def weight(value, limit=MAX_WEIGHT, meter=None):
    """The expanded size of `value`, or None when it is not plain data all the way
    down, has a cycle, or weighs more than `limit`.

    A part shared by several places counts once per place (what `str`, `==` or
    JSON encoding walk), but is itself walked once, so the cost is at most the
    number of distinct containers and elements, never more than `limit`
    steps. Strings and integers weigh one per 64 characters or bits. Dict keys
    must be scalars (hashing and comparing them runs no Python code).
    """
    t = type(value)
    if t in SCALARS:
        w = _scalar_weight(value, t)
        return w if w <= limit else None
    if t not in CONTAINERS:
        return None
    done = {}            # id -> weight of a finished container
    opened = set()       # ids of containers whose children are being weighed
    stack = [value]
    steps = 0
    while stack:
        x = stack[-1]
        key = id(x)
        if key in done:
            stack.pop()
            continue
        tx = type(x)
        items = x.values() if tx is dict else x
        if key not in opened:
            opened.add(key)
            steps += len(x) + 1
            if steps > limit:
                return None
            if meter is not None:
                meter.tick(len(x) + 1)
            if tx is dict and not set(map(type, x)) <= SCALARS:
                return None
            for item in items:
                ti = type(item)
                if ti in CONTAINERS:
                    child = id(item)
                    if child in opened and child not in done:
                        return None          # an ancestor: a cycle
                    if child not in done:
                        stack.append(item)
                elif ti not in SCALARS:
                    return None
            continue
        stack.pop()
        total = 1
        if tx is dict:
            for k in x:
                total += _scalar_weight(k, type(k))
        for item in items:
            ti = type(item)
            total += done[id(item)] if ti in CONTAINERS else _scalar_weight(item, ti)
        if total > limit:
            return None
        done[key] = total
    return done[id(value)]


def _scalar_keys(d, meter):
    """A dict whose keys are all scalars: lookups in it compare no user objects."""
    if meter is not None:
        meter.tick(len(d))
    return set(map(type, d)) <= SCALARS


# --- Operations ----------------------------------------------------------------

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
_CONVERSIONS = {ord("r"): repr, ord("s"): str, ord("a"): ascii}


def _bits(x):
    return abs(int(x)).bit_length()


def size_ok(v):
    """A value built here stays small at its top level (deep size: `weight`)."""
    return not (type(v) in (str, list, tuple, dict) and len(v) > MAX_LEN) and \
        not (type(v) is int and v.bit_length() > MAX_BITS)


def frozen(v, meter=None, budget=1000):
    """Deeply immutable: no code can change it without rebinding a name."""
    stack = [v]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        if meter is not None:
            meter.tick()
        x = stack.pop()
        if type(x) is tuple:
            stack.extend(x)
        elif type(x) not in SCALARS and type(x) not in (bytes, complex):
            return False
    return True


class Evaluator:
    """Values of expressions over plain data (see the module docstring).

    `usable(name)` says whether the builtin `name` is unshadowed where the
    expression runs; `meter` (optional) is charged one step per node and per
    element walked, and raises OverBudget when spent. Identity is preserved
    where Python preserves it (`inputs["a"]` is the object inside `inputs`),
    which prefix's aliasing rules rely on.
    """

    def __init__(self, usable, meter=None):
        self.usable = usable
        self.meter = meter

    def value(self, node, env):
        try:
            return self._value(node, env, 0)
        except Exception:             # TypeError, ValueError, RecursionError, MemoryError...
            return UNKNOWN

    def _deep(self, *values):
        return all(weight(v, MAX_WEIGHT, self.meter) is not None for v in values)

    def _value(self, node, env, depth):
        if depth > MAX_DEPTH:
            return UNKNOWN
        if self.meter is not None:
            self.meter.tick()
        depth += 1
        t = type(node)
        if t is ast.Constant:
            return node.value
        if t is ast.Name:
            return env.get(node.id, UNKNOWN) if isinstance(node.ctx, ast.Load) else UNKNOWN
        if t in (ast.List, ast.Tuple, ast.Set):
            items = []
            for e in node.elts:
                if type(e) is ast.Starred:
                    v = self._value(e.value, env, depth)
                    if type(v) not in _SEQUENCES or len(items) + len(v) > MAX_LEN:
                        return UNKNOWN
                    items.extend(v)
                else:
                    v = self._value(e, env, depth)
                    if v is UNKNOWN:
                        return UNKNOWN
                    items.append(v)
            if t is ast.Set:
                return set(items) if self._deep(*items) else UNKNOWN   # hashing walks items
            return items if t is ast.List else tuple(items)
        if t is ast.Dict:
            d = {}
            for k, v in zip(node.keys, node.values):
                vv = self._value(v, env, depth)
                if vv is UNKNOWN:
                    return UNKNOWN
                if k is None:
                    if type(vv) is not dict or not _scalar_keys(vv, self.meter):
                        return UNKNOWN
                    d.update(vv)
                else:
                    kv = self._value(k, env, depth)
                    if type(kv) not in SCALARS:
                        return UNKNOWN
                    d[kv] = vv
            return d
        if t is ast.BinOp:
            a = self._value(node.left, env, depth)
            b = self._value(node.right, env, depth) if a is not UNKNOWN else UNKNOWN
            return UNKNOWN if b is UNKNOWN else self.binop(type(node.op), a, b)
        if t is ast.UnaryOp:
            v = self._value(node.operand, env, depth)
            op = type(node.op)
            if op is ast.Not:
                return UNKNOWN if type(v) not in PLAIN else (not v)
            if type(v) not in (int, float, bool):
                return UNKNOWN
            if op is ast.USub:
                return -v
            if op is ast.UAdd:
                return +v
            return ~v if type(v) is not float else UNKNOWN
        if t is ast.BoolOp:
            v = UNKNOWN
            for e in node.values:
                v = self._value(e, env, depth)
                if type(v) not in PLAIN:
                    return UNKNOWN
                if bool(v) == (type(node.op) is ast.Or):
                    return v
            return v
        if t is ast.Compare:
            left = self._value(node.left, env, depth)
            for op, right in zip(node.ops, node.comparators):
                r = self._value(right, env, depth)
                if type(left) not in PLAIN or type(r) not in PLAIN:
                    return UNKNOWN
                if type(op) in (ast.Is, ast.IsNot):
                    if not (type(left) in (type(None), bool) or type(r) in (type(None), bool)):
                        return UNKNOWN     # identity of other objects is the runtime's choice
                elif not self._deep(left, r):
                    return UNKNOWN         # ==, <, in walk both operands
                if not _CMPOPS[type(op)](left, r):
                    return False
                left = r
            return True
        if t is ast.IfExp:
            test = self._value(node.test, env, depth)
            if type(test) not in PLAIN:
                return UNKNOWN
            return self._value(node.body if test else node.orelse, env, depth)
        if t is ast.Subscript:
            obj = self._value(node.value, env, depth)
            if type(obj) not in (list, tuple, str, dict):
                return UNKNOWN
            key = self._value(node.slice, env, depth)
            if type(key) is slice:
                if type(obj) is dict:
                    return UNKNOWN
            elif type(key) not in SCALARS:
                return UNKNOWN
            elif type(obj) is dict and not _scalar_keys(obj, self.meter):
                return UNKNOWN
            return obj[key]
        if t is ast.Slice:
            parts = [None if p is None else self._value(p, env, depth)
                     for p in (node.lower, node.upper, node.step)]
            if any(p is not None and type(p) not in (int, bool) for p in parts):
                return UNKNOWN
            return slice(*parts)
        if t is ast.JoinedStr:
            out = []
            for part in node.values:
                v = self._value(part, env, depth)
                if type(v) is not str:
                    return UNKNOWN
                out.append(v)
            v = "".join(out)
            return v if size_ok(v) else UNKNOWN
        if t is ast.FormattedValue:
            v = self._value(node.value, env, depth)
            if type(v) not in PLAIN or (type(v) not in SCALARS and not self._deep(v)):
                return UNKNOWN
            if node.conversion in _CONVERSIONS:
                v = _CONVERSIONS[node.conversion](v)
            spec = "" if node.format_spec is None else self._value(node.format_spec, env, depth)
            if type(spec) is not str or not _FORMAT_SPEC.match(spec):
                return UNKNOWN
            v = format(v, spec)
            return v if size_ok(v) else UNKNOWN
        if t is ast.Call:
            return self._call(node, env, depth)
        return UNKNOWN

    def _call(self, node, env, depth):
        f = node.func
        if any(type(a) is ast.Starred for a in node.args) or any(k.arg is None for k in node.keywords):
            return UNKNOWN
        args = [self._value(a, env, depth) for a in node.args]
        kwargs = {k.arg: self._value(k.value, env, depth) for k in node.keywords}
        if any(type(a) not in PLAIN for a in args) or any(type(v) not in PLAIN for v in kwargs.values()):
            return UNKNOWN
        if type(f) is ast.Name:
            if f.id not in BUILTIN_KEYWORDS or not self.usable(f.id):
                return UNKNOWN
            if any(k not in BUILTIN_KEYWORDS[f.id] for k in kwargs):
                return UNKNOWN
            v = self.builtin(f.id, args, kwargs)
        elif type(f) is ast.Attribute and not kwargs:
            obj = self._value(f.value, env, depth)
            if type(obj) not in PLAIN:
                return UNKNOWN
            v = self.method(obj, f.attr, args)
        else:
            return UNKNOWN
        return v if v is UNKNOWN or size_ok(v) else UNKNOWN

    # -- the operations themselves, on plain operands

    def binop(self, op, a, b):
        """`a op b` over plain values, refusing anything that could blow up."""
        ta, tb = type(a), type(b)
        if ta not in PLAIN or tb not in PLAIN or op not in _BINOPS:
            return UNKNOWN
        ints = ta in (int, bool) and tb in (int, bool)
        if op is ast.Mult:
            if ta in _SEQUENCES and tb in (int, bool):
                if len(a) * max(int(b), 0) > MAX_LEN:
                    return UNKNOWN
            elif tb in _SEQUENCES and ta in (int, bool):
                if len(b) * max(int(a), 0) > MAX_LEN:
                    return UNKNOWN
            elif ints and _bits(a) + _bits(b) > MAX_BITS:
                return UNKNOWN
        elif op is ast.Add and ta in _SEQUENCES and tb in _SEQUENCES:
            if len(a) + len(b) > MAX_LEN:
                return UNKNOWN
        elif op is ast.Pow and ints:
            if b > 0 and abs(a) > 1 and _bits(a) * b > MAX_BITS:
                return UNKNOWN
        elif op is ast.LShift and ints:
            if b > MAX_BITS or _bits(a) + b > MAX_BITS:
                return UNKNOWN
        elif op is ast.Mod and ta is str:
            return UNKNOWN                    # printf formatting: widths are unbounded
        elif ta is dict or tb is dict:
            # `|` merges: inserting keys compares them with the other's keys.
            if not (ta is dict and tb is dict and _scalar_keys(a, self.meter) and _scalar_keys(b, self.meter)):
                return UNKNOWN
            if len(a) + len(b) > MAX_LEN:
                return UNKNOWN
        v = _BINOPS[op](a, b)
        return v if size_ok(v) else UNKNOWN

    def builtin(self, name, args, kwargs):
        """A builtin of BUILTIN_KEYWORDS over plain arguments, or UNKNOWN."""
        if name == "len":
            return len(*args) if len(args) == 1 and type(args[0]) in (str, list, tuple, dict) else UNKNOWN
        if name == "bool":
            return bool(*args) if len(args) <= 1 else UNKNOWN
        if name in ("list", "tuple"):
            if len(args) > 1 or kwargs:
                return UNKNOWN
            return (list if name == "list" else tuple)(*args)
        if name in ("str", "repr"):
            if len(args) != 1 or kwargs or not self._deep(args[0]):
                return UNKNOWN
            v = (str if name == "str" else repr)(args[0])
            return v if size_ok(v) else UNKNOWN
        if name == "sum":
            if len(args) != 1 or kwargs or type(args[0]) not in (list, tuple):
                return UNKNOWN
            if self.meter is not None:
                self.meter.tick(len(args[0]))
            if not all(type(x) in (int, float, bool) for x in args[0]):
                return UNKNOWN
            v = sum(args[0])
            return v if size_ok(v) else UNKNOWN
        if name in ("int", "float", "abs", "round"):
            if any(type(a) not in SCALARS for a in args) or (name != "round" and (kwargs or len(args) > 1)):
                return UNKNOWN
            if name == "round":
                digits = args[1] if len(args) == 2 else kwargs.get("ndigits")
                if digits is not None and (type(digits) is not int or abs(digits) > 100):
                    return UNKNOWN
            return {"int": int, "float": float, "abs": abs, "round": round}[name](*args, **kwargs)
        if name in ("min", "max", "sorted"):
            if not self._deep(*args, *kwargs.values()):
                return UNKNOWN             # they compare the elements
            return {"min": min, "max": max, "sorted": sorted}[name](*args, **kwargs)
        return UNKNOWN

    def method(self, obj, attr, args):
        """A non-mutating method of a plain object, or UNKNOWN."""
        t = type(obj)
        if attr not in METHODS or not self._deep(*args):
            return UNKNOWN                 # hashing, comparing or joining walks the arguments
        if t is dict:
            if not _scalar_keys(obj, self.meter):
                return UNKNOWN
            if attr == "get" and 1 <= len(args) <= 2:
                return obj.get(*args)
            if attr == "copy" and not args:
                return obj.copy()
            return UNKNOWN
        if t in (list, tuple):
            if attr in ("index", "count"):
                return getattr(obj, attr)(*args) if self._deep(obj) else UNKNOWN
            if attr == "copy" and t is list and not args:
                return obj.copy()
            return UNKNOWN
        if t is not str or attr not in _STR_METHODS:
            return UNKNOWN
        if attr == "replace":
            if len(args) < 2 or type(args[0]) is not str or type(args[1]) is not str:
                return UNKNOWN
            pieces = len(obj) + 1 if not args[0] else len(obj) // len(args[0]) + 1
            if len(obj) + pieces * len(args[1]) > MAX_LEN:
                return UNKNOWN
        if attr in ("zfill", "center", "ljust", "rjust") and (
                not args or type(args[0]) is not int or args[0] > MAX_LEN):
            return UNKNOWN
        v = getattr(obj, attr)(*args)
        return v if size_ok(v) else UNKNOWN


def supported(node, usable):
    """Whether `Evaluator` may know `node`'s value (statically: no values seen).

    The same node types and calls the evaluator handles; PLM uses it to choose
    the calls worth a prepare. `usable(name)` says the builtin `name` is
    unshadowed in the whole program.
    """
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Constant:
            continue
        if t is ast.Name:
            if not isinstance(n.ctx, ast.Load):
                return False
            continue
        if t is ast.Call:
            f = n.func
            if any(type(a) is ast.Starred for a in n.args) or any(k.arg is None for k in n.keywords):
                return False
            if type(f) is ast.Name:
                if f.id not in BUILTIN_KEYWORDS or not usable(f.id) or \
                        any(k.arg not in BUILTIN_KEYWORDS[f.id] for k in n.keywords):
                    return False
            elif type(f) is ast.Attribute:
                if f.attr not in METHODS or n.keywords:
                    return False
                stack.append(f.value)
            else:
                return False
            stack.extend(n.args)
            stack.extend(k.value for k in n.keywords)
            continue
        if t is ast.Starred:
            stack.append(n.value)
            continue
        if t in (ast.List, ast.Tuple, ast.Set):
            stack.extend(n.elts)
        elif t is ast.Dict:
            stack.extend(k for k in n.keys if k is not None)
            stack.extend(n.values)
        elif t is ast.BinOp:
            stack += [n.left, n.right]
        elif t is ast.UnaryOp:
            stack.append(n.operand)
        elif t is ast.BoolOp:
            stack.extend(n.values)
        elif t is ast.Compare:
            stack.append(n.left)
            stack.extend(n.comparators)
        elif t is ast.IfExp:
            stack += [n.test, n.body, n.orelse]
        elif t is ast.Subscript:
            if not isinstance(n.ctx, ast.Load):
                return False
            stack += [n.value, n.slice]
        elif t is ast.Slice:
            stack.extend(p for p in (n.lower, n.upper, n.step) if p is not None)
        elif t is ast.JoinedStr:
            stack.extend(n.values)
        elif t is ast.FormattedValue:
            stack.append(n.value)
            if n.format_spec is not None:
                stack.append(n.format_spec)
        else:
            return False
    return True


# --- PLM's prepares ----------------------------------------------------------

_PAYLOADS = {}
_PAYLOAD_LIMIT = 1024


def _payload_node(text):
    node = _PAYLOADS.get(text)
    if node is None:
        node = ast.parse(text, mode="eval").body
        if len(_PAYLOADS) >= _PAYLOAD_LIMIT:
            _PAYLOADS.pop(next(iter(_PAYLOADS)))
        _PAYLOADS[text] = node
    return node


def _always(name):
    return True


def arguments(payload, env):
    """The keyword arguments of a PLM prepare, or None when they are not known.

    `payload` is the source text of a dict display (the call's keywords, as
    the transform wrote them) and `env` the values of the names it reads at
    the prepare. The builtins it calls are unshadowed in the whole program
    (the transform checked), so they are evaluated here as themselves. The
    result is plain data within MAX_WEIGHT, ready for encoding.
    """
    meter = Meter(PREPARE_STEPS)
    args = Evaluator(_always, meter).value(_payload_node(payload), env)
    if type(args) is not dict or weight(args, MAX_WEIGHT, meter) is None:
        return None
    return args


def request_ok(args, meter=None):
    """Whether keyword arguments are plain data small enough to encode early."""
    return weight(args, MAX_WEIGHT, meter) is not None
