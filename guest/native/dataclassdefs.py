"""@dataclass classes (and typed NamedTuples), rewritten into the plain classes
classes.py compiles.

    @dataclass(frozen=True)
    class Item:
        name: str
        count: int = 0
        tags: list[str] = field(default_factory=list)

becomes the class with the __init__ CPython's dataclasses module generates
(`def __init__(self, name: str, count: int = 0)`, assigning every field in
order, `self.tags = []` for a default factory). Instances stay native-only
like any class's (classes.py), so only what native code does with them has
to match CPython: construction, field reads and writes, methods. What the
generated dunders would change is refused: `==`, `in` and list.index/count/
remove on instances compare fields in CPython, not identity (Ty.eq_by_fields);
a frozen instance's fields are written only by the generated __init__
(statements.py). A factory field is not a parameter of the native __init__:
a native call passing it is refused (too many arguments), the others are
exact. A typed NamedTuple is, for what native code may do with it, such a
frozen class (_rewrite_named_tuple).
"""
import ast

from .classmembers import is_constant
from .errors import CompileError

# dataclass() keywords native code keeps the meaning of: eq and order only add dunders
# whose uses are refused, repr's output never reaches native code.
_OPTIONS = {"frozen": False, "eq": True, "order": False, "repr": True, "init": True}
# default_factory -> the expression the generated __init__ evaluates (a fresh value each call).
_FACTORIES = {"list": "[]", "dict": "{}", "set": "set()", "int": "0", "float": "0.0", "str": "''", "bool": "False"}


class Options:
    """What @dataclass(...) asked for (or a NamedTuple base), kept on the class node for
    classes.py, statements.py and calls.py."""

    def __init__(self, frozen, eq, generated_init, named_tuple=False):
        self.frozen = frozen
        self.eq = eq
        self.generated_init = generated_init
        self.named_tuple = named_tuple

    @property
    def frozen_error(self):
        """What CPython raises when a field of such an instance is assigned."""
        return "AttributeError: can't set attribute" if self.named_tuple else "FrozenInstanceError"


def _is_class_var(s):
    """A ClassVar is no field, as the dataclasses module reads it (a Final one is a field)."""
    return is_constant(s, ("ClassVar",))


def _is_name(node, names, local_names, module_attr):
    """Does @p node spell the dataclasses function @p module_attr (`dataclass`, `dataclasses.dataclass`)?"""
    if isinstance(node, ast.Name):
        return local_names.get(node.id) == module_attr
    return isinstance(node, ast.Attribute) and node.attr == module_attr and isinstance(node.value, ast.Name) and \
        node.value.id in names.dataclass_modules


def _options(decorator, names):
    call = decorator if isinstance(decorator, ast.Call) else None
    if not _is_name(call.func if call else decorator, names, names.dataclass_functions, "dataclass"):
        return None
    opts = dict(_OPTIONS)
    if call is not None:
        if call.args:
            raise CompileError(call, "Dataclass", "dataclass() takes keyword arguments only")
        for k in call.keywords:
            if k.arg not in _OPTIONS or not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)):
                raise CompileError(k.value, "Dataclass", f"dataclass({k.arg}=...) is not supported natively "
                                   f"(only {', '.join(_OPTIONS)} with True or False)")
            opts[k.arg] = k.value.value
    if not opts["init"]:
        raise CompileError(decorator, "Dataclass", "dataclass(init=False) is not supported natively")
    if opts["order"] and not opts["eq"]:
        raise CompileError(decorator, "Dataclass", "eq must be true if order is true")
    return opts


def _field_default(value, names, named_tuple):
    """(default constant node or None, factory expression or None) of a field's `= value`."""
    if named_tuple or not (isinstance(value, ast.Call) and
                           _is_name(value.func, names, names.dataclass_functions, "field")):
        return value, None
    if value.args:
        raise CompileError(value, "Dataclass", "field() takes keyword arguments only")
    default = factory = None
    for k in value.keywords:
        if k.arg == "default":
            default = k.value
        elif k.arg == "default_factory" and isinstance(k.value, ast.Name) and k.value.id in _FACTORIES:
            factory = ast.parse(_FACTORIES[k.value.id], mode="eval").body
        else:
            raise CompileError(k, "Dataclass", f"field({k.arg}=...) is not supported natively (default=, and "
                               f"default_factory= one of {', '.join(_FACTORIES)})")
    if default is not None and factory is not None:
        raise CompileError(value, "Dataclass", "cannot specify both default and default_factory")
    return default, factory


def _rewrite(node, opts, names, named_tuple=False):
    if node.bases or node.keywords:
        raise CompileError(node, "Dataclass", f"dataclass {node.name} has a base class: not supported natively")
    params, defaults, body = [], [], []
    for s in node.body:
        if not isinstance(s, ast.AnnAssign) or s.value is None or _is_class_var(s):
            continue
        default, factory = _field_default(s.value, names, named_tuple)
        s.value = default
        if isinstance(s.target, ast.Name):
            s._factory = factory
    own_init = any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in node.body)
    for s in node.body:
        if not (isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)) or _is_class_var(s):
            continue
        name = s.target.id
        factory = getattr(s, "_factory", None)
        if factory is not None:
            value = factory
        else:
            if s.value is None and defaults:
                raise CompileError(s, "Dataclass", f"non-default argument {name!r} follows default argument")
            params.append(ast.arg(name, s.annotation))
            if s.value is not None:
                defaults.append(s.value)
            value = ast.Name(name, ast.Load())
        if not own_init:  # the generated __init__ sets every field: the class attribute is never read natively
            s.value = None
        body.append(ast.Assign([ast.Attribute(ast.Name("self", ast.Load()), name, ast.Store())], value))
    if not own_init:
        init = ast.FunctionDef("__init__", ast.arguments([], [ast.arg("self")] + params, None, [], [], None, defaults),
                               body or [ast.Pass()], [], ast.Constant(None), None)
        node.body.append(ast.fix_missing_locations(ast.copy_location(init, node)))
    node.decorator_list = []
    node._dataclass = Options(opts["frozen"], opts["eq"], not own_init, named_tuple)


def _is_named_tuple(node, names):
    """Is @p node `class P(NamedTuple)` (typing's, as `NamedTuple` or `typing.NamedTuple`)?"""
    if len(node.bases) != 1:
        return False
    b = node.bases[0]
    return (isinstance(b, ast.Name) and names.typing.get(b.id) == "NamedTuple") or \
        (isinstance(b, ast.Attribute) and b.attr == "NamedTuple" and isinstance(b.value, ast.Name) and
         b.value.id in names.typing_modules)


def _rewrite_named_tuple(node, names):
    """A typed NamedTuple is, for what native code may do with it, a frozen dataclass: built
    from its fields (defaults included) and read by name. Everything that makes it a tuple
    (indexing, unpacking, len, iteration, ==, hashing, repr, isinstance of tuple) is refused
    for class instances, and those stay native-only, so Python only ever sees the real class."""
    if node.decorator_list or node.keywords:
        raise CompileError(node, "NamedTuple", "a decorated NamedTuple is not supported natively")
    if any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in node.body):
        raise CompileError(node, "NamedTuple", "a NamedTuple's __init__ is not supported natively")
    if not any(isinstance(s, ast.AnnAssign) for s in node.body):
        raise CompileError(node, "NamedTuple", "a NamedTuple without fields (always false) is not supported natively")
    node.bases = []
    _rewrite(node, dict(_OPTIONS, frozen=True), names, named_tuple=True)


def desugar_dataclasses(cdefs, names):
    """Rewrite the @dataclass classes among @p cdefs in place (decorators other than
    dataclass stay, for classes.py to refuse)."""
    dataclasses = set()
    for node in cdefs:
        if _is_named_tuple(node, names):
            _rewrite_named_tuple(node, names)
            dataclasses.add(node.name)
            continue
        found = [d for d in node.decorator_list if _options(d, names) is not None]
        if not found:
            continue
        if len(node.decorator_list) > 1:
            raise CompileError(node, "Decorator", "a dataclass with other decorators is not supported natively")
        _rewrite(node, _options(found[0], names), names)
        dataclasses.add(node.name)
    for node in cdefs:
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in dataclasses:
                raise CompileError(node, "Dataclass", f"{node.name} derives from {base.id} (a dataclass or "
                                   "NamedTuple): not supported natively")
