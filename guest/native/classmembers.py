"""Class members other than fields and plain methods: class-level constants,
@staticmethod, @classmethod and read-only @property.

    class Matrix:
        SIZE = 3                          # a constant: self.SIZE, Matrix.SIZE
        @staticmethod
        def identity_at(i: int, j: int) -> int: ...     # Matrix.identity_at(), m.identity_at()
        @classmethod
        def square(cls, v: int) -> 'Matrix': return cls(v)   # cls is the class itself
        @property
        def trace(self) -> int: ...       # m.trace calls the getter

A constant is an int, float, bool or str literal (negative numbers too), or a
tuple of them, read as if written in place (modulenames.value_node). An
instance attribute of the same name shadows it per instance, as in Python:
the constant is then the field's default (what the instance reads before
__init__ sets it), which is exactly CPython's lookup order. A subclass may not
rebind a constant its base has (the base's methods would read either).
A @classmethod is taken only in a class without subclasses, where `cls` can
only be the class itself: the method is then a static one with `cls` spelled
as the class. A property is a getter; setters and deleters are refused.
"""
import ast
import copy

from . import inheritance
from .errors import CompileError

STATIC_SELF = "static.self"
DECORATORS = ("staticmethod", "classmethod", "property")
_LITERALS = (int, float, bool, str)


def decorator(f):
    """'staticmethod', 'classmethod', 'property' or None for method @p f; refuses other decorators."""
    if not f.decorator_list:
        return None
    d = f.decorator_list[0]
    if len(f.decorator_list) > 1 or not (isinstance(d, ast.Name) and d.id in DECORATORS):
        raise CompileError(d, "Decorator", f"decorator {ast.unparse(d)!r} on a method is not supported natively "
                           f"(only {', '.join('@' + n for n in DECORATORS)})")
    return d.id


def is_constant(s, markers=("ClassVar", "Final")):
    """Is class-body statement @p s a class attribute: `NAME = value`, `NAME: ClassVar[T] = value`
    or `NAME: Final = value` (the others with an annotation are instance fields)?"""
    if isinstance(s, ast.Assign):
        return True
    a = s.annotation if isinstance(s, ast.AnnAssign) else None
    a = a.value if isinstance(a, ast.Subscript) else a
    return isinstance(a, ast.Name) and a.id in markers


def constant(s):
    """(name, value) of a class-body `NAME = literal` (is_constant); refuses any other."""
    targets = s.targets if isinstance(s, ast.Assign) else [s.target]
    if not (len(targets) == 1 and isinstance(targets[0], ast.Name)) or s.value is None:
        raise CompileError(s, "ClassBody", "a class-level assignment other than `NAME = literal`")
    if targets[0].id.startswith("__") and targets[0].id.endswith("__"):  # __slots__, __hash__ = None, ...
        raise CompileError(s, "ClassBody", f"class attribute {targets[0].id}: it changes what the class does")
    try:
        value = ast.literal_eval(s.value)
    except ValueError:
        value = None
    if not _immutable_literal(value):
        raise CompileError(s, "ClassBody", f"class attribute {targets[0].id!r}: only int, float, bool or str "
                           "literals (or tuples of them) are supported natively (a shared mutable one would be "
                           "visible to all instances)")
    return targets[0].id, value


def _immutable_literal(value):
    if isinstance(value, tuple):
        return all(_immutable_literal(v) for v in value)
    return type(value) in _LITERALS and not (type(value) is int and not -2 ** 63 <= value < 2 ** 63)


def collect(info):
    """Fill info.constants from the class body (before fields are collected)."""
    for s in info.node.body:
        if is_constant(s):
            name, value = constant(s)
            info.constants[name] = value


def check_hierarchy(info):
    """A constant is the one thing its name means for the class and its subclasses (no base's
    constant or field rebound, no subclass field, no method of that name); a property is one
    in every subclass; a class with subclasses has no classmethods."""
    for name in info.constants:
        for a in inheritance.ancestors(info)[1:]:
            if name in a.constants or name in a.fields:
                raise CompileError(info.node, "ClassConstant", f"{info.name}.{name} rebinds {a.name}.{name}: "
                                   "the base's methods would read one or the other")
        for c in inheritance.subtree(info):
            if name in c.methods or any(f.name == name for f in c.node.body if isinstance(f, ast.FunctionDef)) or \
                    (c is not info and name in c.fields and name not in info.fields):
                raise CompileError(c.node, "ClassConstant", f"{c.name}.{name} is not only the class constant "
                                   f"{info.name}.{name}")
    for name in info.properties:
        for c in inheritance.subtree(info)[1:]:
            if name in c.methods and name not in c.properties:
                raise CompileError(c.node, "Property", f"{c.name}.{name} overrides the property "
                                   f"{info.name}.{name} with a method")
    for f in info.static_defs():
        if decorator(f) == "classmethod" and (info.subclasses or info.base is not None):
            raise CompileError(f, "Decorator", f"@classmethod {info.name}.{f.name} in a class hierarchy: cls "
                               "could be any of its classes")


def shadowing_defaults(info):
    """A constant that instances also assign is the field's default (Python reads the class's
    until the instance has its own)."""
    for name, value in info.constants.items():
        if name in info.fields and name not in info.defaults:
            if info.subclasses or isinstance(value, tuple):
                raise CompileError(info.node, "FieldDefault", f"{info.name} has subclasses: its class attribute "
                                   f"{name!r}, also an instance field, is not supported natively")
            ty = info.fields[name]
            if type(value).__name__ != ty.kind:
                raise CompileError(info.node, "FieldType", f"field {name!r} is {ty.text}, its class attribute "
                                   f"{type(value).__name__}")
            info.defaults[name] = ast.Constant(value)


def as_static(f, info):
    """The FunctionDef lowered for @p f: a method whose instance (STATIC_SELF, a name the
    source cannot spell) is None and unused; a classmethod's `cls` becomes the class's name."""
    g = copy.deepcopy(f)
    g.decorator_list = []
    if decorator(f) != "classmethod":
        g.args.args = [ast.arg(STATIC_SELF)] + g.args.args
        return g
    if not f.args.args:
        raise CompileError(f, "MethodSelf", f"classmethod {f.name} must take cls first")
    cls = f.args.args[0].arg
    g.args.args = [ast.arg(STATIC_SELF)] + g.args.args[1:]
    for n in ast.walk(g):
        if isinstance(n, ast.Name) and n.id == cls:
            if not isinstance(n.ctx, ast.Load):
                raise CompileError(f, "Decorator", f"classmethod {f.name} rebinds {cls!r}")
            n.id = info.name
    return g


def find(info, table, name):
    """(class, entry) of the nearest class (MRO) whose @p table ('constants', 'statics',
    'properties') holds @p name, or (None, None)."""
    for a in inheritance.ancestors(info):
        if name in getattr(a, table):
            return a, getattr(a, table)[name]
    return None, None


def refuse_subclass_override(node, info, table, name):
    """A static member reached through an instance whose class has subclasses redefining it
    would be the subclass's in CPython: refused (no dispatch of static members natively)."""
    owner, _ = find(info, table, name)
    for c in inheritance.subtree(info)[1:]:
        if find(c, table, name)[0] is not owner:
            raise CompileError(node, "StaticOverride", f"{name} of {info.name} is redefined by subclass {c.name}")
