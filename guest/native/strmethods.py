"""The arguments of a str method call in the order of its parameters, with their expected types.

Keywords (split's sep= and maxsplit=, splitlines' keepends=) become positional, and split's None
separator is dropped: `s.split(None, 1)` and `s.split(maxsplit=1)` are the method table's
split(int). A tuple display given to startswith/endswith is a tuple[str, ...] (any of the strings
matches).
"""
import ast

from .errors import CompileError
from .typemodel import BOOL, INT, STR, list_of, vtuple_of

# The positions of each method's int parameters (start, end, maxsplit, count, width, tabsize); the
# others are str, but splitlines' keepends.
_INT_AT = {"count": (1, 2), "find": (1, 2), "rfind": (1, 2), "index": (1, 2), "rindex": (1, 2),
           "startswith": (1, 2), "endswith": (1, 2), "split": (1,), "rsplit": (1,), "replace": (2,),
           "zfill": (0,), "ljust": (0,), "rjust": (0,), "center": (0,), "expandtabs": (0,)}
# The parameters that may be given by keyword, in order, and what a skipped one stands for.
_KEYWORDS = {"split": ("sep", "maxsplit"), "rsplit": ("sep", "maxsplit"), "splitlines": ("keepends",)}
_SKIPPED = ast.Constant(None)


def _positional(node, method):
    args = list(node.args)
    names = [k.arg for k in node.keywords]
    params = _KEYWORDS.get(method, ())
    # Keywords in parameter order only: they are evaluated in the order written.
    if names != [n for n in params[len(args):] if n in names]:
        raise CompileError(node, "CallKeywords", f"keyword argument {names[0]!r}" if not params else
                           f"str.{method}() keywords other than {', '.join(p + '=' for p in params)} in order")
    given = {k.arg: k.value for k in node.keywords}
    for p in params[len(args):]:
        if p in given:
            args += [_SKIPPED] * (params.index(p) - len(args)) + [given[p]]
    return args


def arguments(node, method):
    """(argument nodes, expected types) of `s.method(...)`."""
    args = _positional(node, method)
    if method == "join":
        return args, [list_of(STR)]
    if method == "splitlines":
        return args, [BOOL] * len(args)
    if method in ("split", "rsplit") and args and isinstance(args[0], ast.Constant) and args[0].value is None:
        return args[1:], [INT] * (len(args) - 1)
    types = [INT if i in _INT_AT.get(method, ()) else STR for i in range(len(args))]
    if method in ("startswith", "endswith") and args and isinstance(args[0], ast.Tuple):
        types[0] = vtuple_of(STR)
    return args, types
