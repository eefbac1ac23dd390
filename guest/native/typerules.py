"""Type rules of the subset (seed 001): annotations map to data types,
arithmetic follows Python's bool < int < float tower, and nothing may
change a variable's type (CPython would, so native code could not agree)."""
import ast

from .errors import CompileError
from .irbuilder import BOOL, FLOAT, INT

ANNOTATIONS = {"int": INT, "float": FLOAT, "bool": BOOL}
PY_NAMES = {INT: "int", FLOAT: "float", BOOL: "bool"}


def annotation_type(node, what):
    """The data type an annotation names; only int, float and bool for now."""
    if node is None:
        raise CompileError(None, "MissingAnnotation", f"{what} needs a type annotation")
    if isinstance(node, ast.Name) and node.id in ANNOTATIONS:
        return ANNOTATIONS[node.id]
    raise CompileError(node, "Annotation", f"{what}: unsupported annotation {ast.unparse(node)!r} "
                       "(supported: int, float, bool)")


def arith(a, b):
    """Result type of + - * // % on operand types a, b."""
    return FLOAT if FLOAT in (a, b) else INT


def require_same(node, want, got, what):
    if want != got:
        raise CompileError(node, "TypeChange",
                           f"{what} is {PY_NAMES[want]}, value is {PY_NAMES[got]}")
