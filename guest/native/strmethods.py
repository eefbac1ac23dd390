"""The arguments of a str method call in the order of its parameters, with their expected types.

split's and rsplit's keywords (sep=, maxsplit=) become positional, and a None separator is dropped:
`s.split(None, 1)` and `s.split(maxsplit=1)` are the method table's split(int). A tuple display given
to startswith/endswith is a tuple[str, ...] (any of the strings matches).
"""
import ast

from .errors import CompileError
from .typemodel import INT, STR, list_of, vtuple_of

# The positions of each method's int parameters (start, end, maxsplit, width, tabsize); the others are str.
_INT_AT = {"count": (1, 2), "find": (1, 2), "rfind": (1, 2), "index": (1, 2), "rindex": (1, 2),
           "startswith": (1, 2), "endswith": (1, 2), "split": (1,), "rsplit": (1,), "zfill": (0,),
           "ljust": (0,), "rjust": (0,), "center": (0,), "expandtabs": (0,)}
_SPLIT_KEYWORDS = ("sep", "maxsplit")


def _split_arguments(node, method):
    args = list(node.args)
    names = [k.arg for k in node.keywords]
    # Keywords in parameter order only: they are evaluated in the order written.
    if names != [n for n in _SPLIT_KEYWORDS[len(args):] if n in names]:
        raise CompileError(node, "CallKeywords", f"str.{method}() keywords other than sep=, maxsplit= in order")
    given = {k.arg: k.value for k in node.keywords}
    if "sep" in given:
        args.append(given["sep"])
    if "maxsplit" in given:
        if not args:
            args.append(ast.Constant(None))
        args.append(given["maxsplit"])
    if args and isinstance(args[0], ast.Constant) and args[0].value is None:
        args = args[1:]
        return args, [INT] * len(args)
    return args, [INT if i == 1 else STR for i in range(len(args))]


def arguments(node, method):
    """(argument nodes, expected types) of `s.method(...)`."""
    if method in ("split", "rsplit"):
        return _split_arguments(node, method)
    if node.keywords:
        raise CompileError(node, "CallKeywords", f"keyword argument {node.keywords[0].arg!r}")
    if method == "join":
        return node.args, [list_of(STR)]
    types = [INT if i in _INT_AT.get(method, ()) else STR for i in range(len(node.args))]
    if method in ("startswith", "endswith") and node.args and isinstance(node.args[0], ast.Tuple):
        types[0] = vtuple_of(STR)
    return node.args, types
