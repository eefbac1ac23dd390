"""Type rules of the subset: annotations map to types,
arithmetic follows Python's bool < int < float tower, and nothing may
change a variable's type (CPython would, so native code could not agree).
Container annotations need their element types (list[int], dict[str,
int], tuple[int, str]): precise element types are what keep elements
unboxed natively."""
import ast

from .errors import CompileError
from .optional import optional_annotation, optional_members
from .typemodel import BOOL, FLOAT, INT, NONE, OBJECT, STR, dict_of, list_of, set_of, tuple_of, vtuple_of

ANNOTATIONS = {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR}
_CONTAINERS = {"list": 1, "set": 1, "dict": 2, "tuple": None}


def annotation_type(node, what, classes=None, allow_none=False):
    """The Ty an annotation names. @p classes maps class names to their Ty."""
    if node is None:
        raise CompileError(None, "MissingAnnotation", f"{what} needs a type annotation")
    if allow_none and isinstance(node, ast.Constant) and node.value is None:
        return NONE
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a forward reference: "Vec"
        try:
            inner = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            raise CompileError(node, "Annotation", f"{what}: annotation {node.value!r} is not an expression") from None
        return annotation_type(ast.copy_location(inner, node), what, classes, allow_none)
    if isinstance(node, ast.Name):
        if node.id in ANNOTATIONS:
            return ANNOTATIONS[node.id]
        if classes and node.id in classes:
            return classes[node.id]
        if node.id in ("Any", "object"):
            return OBJECT
        if node.id == "list":  # a bare list or dict holds boxed values
            return list_of(OBJECT)
        if node.id == "dict":
            return dict_of(OBJECT, OBJECT)
        if node.id == "tuple":
            return vtuple_of(OBJECT)
        if node.id in _CONTAINERS:
            raise CompileError(node, "BareContainer", f"{what}: say the element types, e.g. "
                               f"{node.id}[{'str, int' if node.id == 'dict' else 'int'}]")
    union = optional_members(node)
    if union is not None:
        return optional_annotation(node, union, what, lambda n: annotation_type(n, what, classes))
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in _CONTAINERS:
        kind = node.value.id
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if kind == "tuple" and len(items) == 2 and isinstance(items[1], ast.Constant) and items[1].value is Ellipsis:
            return vtuple_of(annotation_type(items[0], what, classes))
        want = _CONTAINERS[kind]
        if want is not None and len(items) != want:
            raise CompileError(node, "Annotation", f"{what}: {kind}[...] takes {want} type(s)")
        args = [annotation_type(i, what, classes) for i in items]
        if kind == "set" and args[0].hashable and not args[0].set_member:
            raise CompileError(node, "KeyType", f"{what}: a set of boxed values (Any) is not native")
        if kind in ("set", "dict") and not args[0].hashable:
            raise CompileError(node, "KeyType", f"{what}: {args[0].text} cannot be a "
                               f"{'set member' if kind == 'set' else 'dict key'} natively (int, bool, str, tuples)")
        if kind == "list":
            return list_of(args[0])
        if kind == "set":
            return set_of(args[0])
        if kind == "dict":
            return dict_of(args[0], args[1])
        return tuple_of(args)
    raise CompileError(node, "Annotation", f"{what}: unsupported annotation {ast.unparse(node)!r} "
                       "(supported: int, float, bool, str, list[T], dict[K, V], set[T], tuple[...], tuple[T, ...], Optional[T], "
                       "classes)")


def arith(a, b):
    """Result type of + - * // % on numeric operand types a, b."""
    return FLOAT if FLOAT in (a, b) else INT


def require_same(node, want, got, what):
    if want != got:
        raise CompileError(node, "TypeChange", f"{what} is {want.text}, value is {got.text}")

