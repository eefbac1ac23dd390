"""Text of values as CPython writes it: f-string fields with a format spec
and !r/!s, format(x, spec), "...".format(...) of a constant template, str(x)
and repr(x) of int, bool, float and str
(the runtime's value_format.cc lays them out as Python/formatter_unicode.c does).

A spec must be a constant the value's type accepts: the compiler asks
CPython's own format() with a sample of that type, so a spec CPython would
refuse (`{x:d}` of a float, `{s:=5}` of a str) leaves the function in
CPython, which raises its error. The locale's 'n' is CPython's too, and so
are widths and precisions beyond the native buffers' bounds."""
import ast
import re
import string

from . import irbuilder as ir
from . import protocols
from .errors import CompileError
from .typemodel import BOOL, FLOAT, INT, STR

# A value of each type for CPython to check a spec against (a bool's non-empty spec is an int's).
_SAMPLES = {INT: 0, BOOL: True, FLOAT: 0.0, STR: ""}
# Digits of a precision (and width) the native layout takes (value_format.cc sizes its buffers for it).
_MAX_DIGITS = 800


def constant_spec(node):
    """The text of a format spec node (a JoinedStr of constants), or None if it has fields."""
    if node is None:
        return ""
    if all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(v.value for v in node.values)
    return None


def check_spec(node, ty, spec):
    """Refuse @p spec unless CPython formats every @p ty value with it (bar '%c' beyond U+10FFFF)."""
    if ty not in _SAMPLES:
        raise CompileError(node, "FormatType", f"formatting a {ty.text} (int, bool, float, str only)")
    try:
        format(_SAMPLES[ty], spec)
    except (ValueError, TypeError, OverflowError) as e:
        raise CompileError(node, "FormatSpec", f"format spec {spec!r} of a {ty.text}: {e}") from None
    if spec.endswith("n"):
        raise CompileError(node, "FormatSpec", "the 'n' format follows the locale (CPython's)")
    if any(int(d) > _MAX_DIGITS for d in re.findall(r"\d+", spec)):
        raise CompileError(node, "FormatSpec", f"width or precision beyond {_MAX_DIGITS} in {spec!r}")


def formatted(node, value, spec):
    """format(value, spec) as a str expression (@p spec checked for the value's type)."""
    check_spec(node, value.ty, spec)
    if spec == "" and value.ty == STR:
        return value
    if spec == "" and value.ty in (INT, BOOL):
        return ir.call_op("str", [value], STR)
    return ir.call_op("format", [value, ir.const_str(spec)], STR)


def converted(node, value, conversion):
    """The value after a field's !s or !r (-1: none); !a is CPython's."""
    if conversion == -1:
        return value
    if value.ty not in _SAMPLES:
        raise CompileError(node, "FormatType", f"!{chr(conversion)} of a {value.ty.text}")
    if conversion == ord("r"):
        return ir.call_op("repr", [value], STR)
    if conversion == ord("s"):
        return formatted(node, value, "")
    raise CompileError(node, "FormatSpec", "!a (ASCII escapes of Unicode names are CPython's)")


def field(v, value):
    """One f-string field `{value!conv:spec}` as a str expression (@p value: v.value lowered)."""
    spec = constant_spec(v.format_spec)
    if spec is None:
        raise CompileError(v, "FormatSpec", "a format spec with fields of its own")
    return formatted(v, converted(v, value, v.conversion), spec)


def format_call(parser, node):
    """format(x) / format(x, spec) with a constant spec."""
    parser.keywords(node, ())
    if len(node.args) not in (1, 2):
        raise CompileError(node, "Builtin", "format() takes 1 or 2 arguments")
    spec = node.args[1].value if len(node.args) == 2 and isinstance(node.args[1], ast.Constant) else \
        "" if len(node.args) == 1 else None
    if not isinstance(spec, str):
        raise CompileError(node, "FormatSpec", "format() with a spec that is not a str constant")
    return formatted(node, parser.value(node.args[0]), spec)


def repr_call(parser, node):
    """repr(x) of an int, bool, float or str; of a boxed value, CPython's own."""
    parser.keywords(node, ())
    if len(node.args) != 1:
        raise CompileError(node, "Builtin", "repr() takes 1 argument")
    value = parser.value(node.args[0])
    if value.ty.kind == "object":
        return ir.call_op("box_repr", [value], STR)
    if value.ty.kind == "class":
        return protocols.text(parser, node, value, "r")
    return converted(node, value, ord("r"))


def str_format_call(parser, node):
    """"...".format(args) of a constant template: the f-string it spells. Fields are `{}` or
    `{N}` with constant specs; with `{N}` (reordered or repeated) only names and constants
    as arguments, whose evaluation order cannot show. Every argument must be used: an unused
    one would be evaluated by CPython only."""
    parser.keywords(node, ())
    template = node.func.value.value
    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError as e:
        raise CompileError(node, "FormatSpec", f"str.format template: {e}") from None
    values, used, auto = [], [], None
    for literal, field_name, spec, conversion in pieces:
        if literal:
            values.append(ast.Constant(literal))
        if field_name is None:
            continue
        if "{" in (spec or "") or (field_name and not field_name.isdigit()) or \
                auto is not None and auto != (field_name == ""):
            raise CompileError(node, "FormatSpec", f"str.format field {{{field_name}}} (positional fields with "
                               "constant specs only)")
        auto = field_name == ""
        index = len(used) if auto else int(field_name)
        if index >= len(node.args):
            raise CompileError(node, "FormatSpec", f"str.format field {index} has no argument")
        used.append(index)
        spec_node = ast.JoinedStr([ast.Constant(spec)]) if spec else None
        values.append(ast.FormattedValue(node.args[index], ord(conversion) if conversion else -1, spec_node))
    reordered = used != list(range(len(node.args)))
    if sorted(set(used)) != list(range(len(node.args))) or \
            reordered and not all(isinstance(a, (ast.Name, ast.Constant)) for a in node.args):
        raise CompileError(node, "FormatSpec", "str.format arguments used other than once each, in order")
    joined = ast.fix_missing_locations(ast.copy_location(ast.JoinedStr(values), node))
    return parser.value(joined)
