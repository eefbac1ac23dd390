"""print() in native functions, with CPython's output.

`print(a, b, sep=s, end=e)` is one statement: its arguments are evaluated in
the order written (positional ones, then the keywords), then each value's
str() is taken, as CPython's print takes it while writing (a later argument
that changes a list or an instance shows in it), and the whole line is kept
with the output of the native call in progress (codegen/boxed.h box_print).
The binding writes that output to sys.stdout, looked up then, when the call
from Python returns; a call that faults (an int64 overflow, a native raise)
drops it, and CPython runs the function from the start and prints itself, so
nothing is printed twice (runtime/compiler/RATIONALE.md, "print").

A value's text is what str() natively gives (int, bool, float, str, None, an
Optional of them, a class's own __str__/__repr__); a list, tuple, dict or set
of such values is handed to CPython's str() as the Python object it stands
for (its elements' reprs are CPython's own). `file=` and `flush=` stay
CPython's, as does print in a unit with boxed values: their operations run
Python code, which could print at once while native output waits."""
import ast

from . import boxed
from . import irbuilder as ir
from . import optional
from .errors import CompileError
from .typemodel import BOOL, INT, STR

_KEYWORDS = ("sep", "end")
_DEFAULTS = {"sep": " ", "end": "\n"}
_CONTAINERS = ("list", "tuple", "vtuple", "dict", "set")


def is_print(scope, call):
    """Is @p call the builtin print (not a function or local of that name)?"""
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print" and \
        "print" not in scope.signatures and scope.module_name("print")


def print_statement(parser, node):
    """The statement `print(...)` of @p node as a box_print of its whole text."""
    scope = parser.scope
    if scope.boxed or has_boxed(scope.module):
        raise CompileError(node, "Print", "print() where boxed values run Python code (which could print "
                           "before the native output is written)")
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise CompileError(node, "CallStar", "*args / **kwargs in a call")
    for k in node.keywords:
        if k.arg not in _KEYWORDS:
            raise CompileError(node, "Print", f"print() with {k.arg}= (sep= and end= only)")
    lets, values = [], []
    for a in node.args:
        none = isinstance(a, ast.Constant) and a.value is None
        more, x = optional.bound(scope, optional.none_literal() if none else parser.value(a, keep_optional=True),
                                 "print")
        lets += more
        values.append((a, x))
    pieces = {k: ir.const_str(v) for k, v in _DEFAULTS.items()}
    for k in node.keywords:
        if isinstance(k.value, ast.Constant) and k.value.value is None:
            continue  # sep=None, end=None: the defaults
        v = parser.value(k.value)
        if v.ty != STR:
            raise CompileError(k.value, "Print", f"print() with {k.arg}= of a {v.ty.text} (a str or None only)")
        more, pieces[k.arg] = optional.bound(scope, v, "print")
        lets += more
    text = None
    for a, x in values:
        part = value_text(parser, a, x)
        text = part if text is None else _concat(_concat(text, pieces["sep"]), part)
    text = pieces["end"] if text is None else _concat(text, pieces["end"])
    return optional.wrap(lets, ir.call_op("box_print", [text], BOOL))


def value_text(parser, node, e):
    """str(@p e) as print writes it."""
    if optional.is_none_literal(e):
        return ir.const_str("None")
    if e.ty.kind in _CONTAINERS:
        if not _plain(e.ty):
            raise CompileError(node, "Print", f"print() of a {e.ty.text} (containers of int, bool, float, str, "
                               "None and containers of them only)")
        return ir.call_op("box_str", [boxed.box(node, e)], STR)
    if e.ty.kind == "optional" and e.ty.args[0] in (INT, BOOL, STR):
        return optional.text(parser.scope, e, lambda x: parser.builtin_values(node, "str", [x]))
    if e.ty.kind == "optional":
        raise CompileError(node, "Print", f"print() of a {e.ty.text}")
    return parser.builtin_values(node, "str", [e])


def has_boxed(module):
    """Does any function, method or field of @p module use boxed values (or call one that does)?"""
    if module.raising:
        return True
    types = {n: c.ty for n, c in module.classes.items()}
    for info in module.classes.values():
        sigs = list(info.methods.values()) + list(info.statics.values())
        if boxed.uses_boxed(None, list(info.fields.values()) + [t for s in sigs for t in s.params + [s.ret]]) or \
                any(boxed.has_boxed_locals(m, types) for m in info.method_defs() + info.static_defs()):
            return True
    return False


def _plain(ty):
    """Does @p ty stand for a Python object built from native values alone (no instance, no box)?"""
    if ty.kind in ("class", "object", "iterator", "pending", "none"):
        return False
    return all(_plain(a) for a in ty.args)


def _concat(a, b):
    return ir.call_op("concat", [a, b], STR)
