"""Class family: a module-level class with typed fields and methods.

    class Point:
        x: int                    # a field (or `self.x: int = ...` in __init__,
        label: str = ""           # or `self.x = <parameter>` / `= <constant>`)
        def __init__(self, x: int) -> None: ...
        def norm(self) -> int: ...

Instances are shared references, as in Python. Only what native code can
reproduce exactly is accepted: single inheritance from program classes
(inheritance.py), no decorators but @dataclass (dataclassdefs.py rewrites
it into such a class first) and @staticmethod, @classmethod, @property
(classmembers.py, with class-level literal constants), no class-level
mutable values; dunder methods are called where CPython calls them
(protocols.py), those that change attribute access or construction
(__getattr__, __new__, ...) are refused; a field may reach its own class only
directly (`next: Optional['Node']`), not through a container. Every field
is set by __init__ (or has a default) before the instance is used as a
whole. Instances never cross into Python: functions taking or returning
them are native-only helpers.
"""
import ast

from . import irbuilder as ir
from . import classmembers
from . import inheritance
from . import protocols
from .errors import CompileError
from .typemodel import NONE, Ty, list_of
from .typerules import annotation_type


class Sig:
    """A callable's signature: parameter types, result type, and whether Python can call it;
    for module functions also the parameter names, how many are positional-only and how many
    may be given by position, and the folded default values by name (keyword-only ones last)."""

    def __init__(self, params, ret, exported, names=(), posonly=0, positional=None, defaults=None):
        self.params = params
        self.ret = ret
        self.exported = exported
        self.names = list(names)
        self.posonly = posonly
        self.positional = len(params) if positional is None else positional
        self.defaults = defaults or {}


class ClassInfo:
    """What the frontend knows of one class."""

    def __init__(self, node):
        self.node = node
        self.name = node.name
        self.ty = Ty("class", (), node.name)  # the node is attached once the fields are typed
        self.dataclass = getattr(node, "_dataclass", None)  # dataclassdefs.Options of a @dataclass
        self.ty.fields_eq = self.dataclass is not None and self.dataclass.eq
        self.fields = {}      # name -> Ty, in declaration order
        self.defaults = {}    # name -> ast.Constant
        self.methods = {}     # name -> Sig (self first)
        self.constants = {}   # class-level `NAME = literal` -> value (classmembers.py)
        self.statics = {}     # @staticmethod / @classmethod name -> Sig (no self)
        self.properties = {}  # @property name -> Sig of its getter (also in methods)
        self.unusable = {}    # dunder name -> why it does not compile (refused where used: protocols.py)
        self.init = None      # Sig of __init__ (its own, else the one it inherits)
        self.base = None      # ClassInfo of the base class (inheritance.py)
        self.subclasses = []
        self.type_id = self.subtree_end = -1

    def method_defs(self):
        """The methods taking self (a property's getter among them)."""
        return [s for s in self.node.body if isinstance(s, ast.FunctionDef) and
                classmembers.decorator(s) in (None, "property")]

    def static_defs(self):
        """@staticmethod and @classmethod functions (no self)."""
        return [s for s in self.node.body if isinstance(s, ast.FunctionDef) and
                classmembers.decorator(s) in ("staticmethod", "classmethod")]


def check_class(node, names=()):
    """Refuse what a class body may not hold natively (@p names: the program's classes)."""
    if node.decorator_list:
        raise CompileError(node.decorator_list[0], "Decorator", "decorated classes are not supported")
    # of a builtin base (an exception class) class attributes and dunders are CPython's business
    builtin_base = any(not (isinstance(b, ast.Name) and (b.id in names or b.id == "object")) for b in node.bases)
    for s in node.body:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue
        if classmembers.is_constant(s):
            if builtin_base:
                raise CompileError(s, "ClassBody", "a class attribute of a class derived from a builtin class")
            classmembers.constant(s)
            continue
        if isinstance(s, (ast.AnnAssign, ast.Pass)):
            continue
        if isinstance(s, ast.FunctionDef):
            kind = classmembers.decorator(s)
            if protocols.is_dunder(s.name) and s.name != "__init__":
                if s.name not in protocols.ALLOWED or builtin_base:
                    raise CompileError(s, "DunderMethod", f"method {s.name} is not supported natively")
                if kind is not None:
                    raise CompileError(s, "Decorator", f"@{kind} on {s.name} is not supported natively")
            continue
        raise CompileError(s, "ClassBody", f"{type(s).__name__} in a class body (fields: `name: T`, and methods)")


def collect_fields(info, classes, instances=None, constants=None):
    """Field types from the class body and from __init__'s `self.x` assignments (a
    subclass's come after its base's, which it has too)."""
    if info.base is not None:
        info.fields = dict(info.base.fields)
    for s in info.node.body:
        if not isinstance(s, ast.AnnAssign) or classmembers.is_constant(s):
            continue
        if not isinstance(s.target, ast.Name):
            raise CompileError(s, "ClassBody", "a field annotation needs a name")
        ty = annotation_type(s.annotation, f"field {s.target.id!r}", classes)
        info.fields[s.target.id] = ty
        if s.value is not None:
            if not (isinstance(s.value, ast.Constant) and not ty.mutable and ty.kind != "tuple"
                    and type(s.value.value).__name__ == ty.kind):
                raise CompileError(s.value, "FieldDefault", "a field default must be a constant of the field's "
                                   "type (a shared mutable default would be a class attribute)")
            info.defaults[s.target.id] = s.value
    init = next((f for f in info.method_defs() if f.name == "__init__"), None)
    if init is None:
        return
    params = {a.arg: a.annotation for a in init.args.args[1:]}
    for s in ast.walk(init):
        target, ann, value = None, None, None
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            target, value = s.targets[0], s.value
        elif isinstance(s, ast.AnnAssign):
            target, ann, value = s.target, s.annotation, s.value
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"):
            continue
        name = target.attr
        if ann is not None:
            ty = annotation_type(ann, f"field {name!r}", classes)
        elif isinstance(value, ast.Name) and params.get(value.id) is not None:
            ty = annotation_type(params[value.id], f"parameter {value.id!r}", classes)
        elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and \
                value.attr in (instances or {}).get(value.value.id, {}):
            ty = instances[value.value.id][value.attr]  # a field of a module-level instance
        elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult) and isinstance(value.left, ast.List) \
                and len(value.left.elts) == 1 and isinstance(value.left.elts[0], ast.Constant) and \
                type(value.left.elts[0].value) in (int, float, bool, str):
            # `self.data = [0] * SIZE`: a list of the literal's type
            ty = list_of(annotation_type(ast.Name(type(value.left.elts[0].value).__name__), f"field {name!r}"))
        elif isinstance(value, ast.Name) and type((constants or {}).get(value.id)) in (int, float, bool, str) and \
                value.id not in params:
            ty = annotation_type(ast.Name(type(constants[value.id]).__name__), f"field {name!r}")  # a module constant
        elif isinstance(value, ast.Constant) and type(value.value) in (int, float, bool, str):
            ty = annotation_type(ast.Name(type(value.value).__name__), f"field {name!r}")
        elif name in info.fields:
            continue
        else:
            raise CompileError(s, "FieldType", f"the type of field {name!r} is not evident; declare "
                               f"`{name}: T` in the class body")
        if name in info.fields and info.fields[name] != ty:
            raise CompileError(s, "FieldType", f"field {name!r} is {info.fields[name].text}, assigned {ty.text}")
        info.fields[name] = ty


def _uses_in_containers(ty, out, inside=False):
    """The classes @p ty names inside a container. A field's own class may not be among
    them, so instances link to their own kind only directly (`next: Optional['Node']`)."""
    if ty.kind == "class" and inside:
        out.add(ty.name)
    for a in ty.args:
        _uses_in_containers(a, out, True)


def build_classes(nodes, names=None):
    """ClassInfo per class, with typed fields and C++ ClassType nodes: declared in preorder of
    the class forest (ids, inheritance.py), then given their fields (bases first)."""
    infos = {n.name: ClassInfo(n) for n in nodes}
    types = {name: i.ty for name, i in infos.items()}
    for i in infos.values():
        check_class(i.node, infos)
        protocols.add_helpers(i.node)
        classmembers.collect(i)
    order = inheritance.number_classes(infos)
    for i in order:
        if i.subclasses and any(isinstance(s, ast.AnnAssign) and s.value is not None and
                                not classmembers.is_constant(s) for s in i.node.body):
            raise CompileError(i.node, "FieldDefault", f"{i.name} has subclasses: its class-level defaults "
                               "are not supported natively (a subclass's __init__ calling it would reset them)")
        i.ty._node = ir.fn("ast.ClassTypeDeclare")(i.name, i.base.ty.node if i.base else None, i.type_id)
    # name -> fields of its class, for the module-level instances (`area = WorkArea()`) already typed
    # The classes of module-level instances first (with their bases): other classes' fields
    # may be typed by theirs (`self.link = area.first`).
    instance_classes = {c for c in (names.instances.values() if names else ()) if c in infos}
    first = [a for c in sorted(instance_classes) for a in reversed(inheritance.ancestors(infos[c]))]
    instances = {}
    for i in dict.fromkeys(first + order):
        collect_fields(i, types, instances, names.constants if names else None)
        instances.update({n: i.fields for n, c in (names.instances if names else {}).items() if c == i.name})
    for i in order:
        for name, t in i.fields.items():
            inside = set()
            _uses_in_containers(t, inside)
            if any(inheritance.is_subclass(infos, c, i.name) or inheritance.is_subclass(infos, i.name, c)
                   for c in inside):
                raise CompileError(i.node, "RecursiveClass", f"field {name!r} of {i.name} holds its own class in "
                                   "a container")
        ir.fn("ast.ClassTypeDefine")(i.ty.node, list(i.fields), [t.node for t in i.fields.values()])
    for i in order:
        classmembers.shadowing_defaults(i)
        for f in i.method_defs():
            try:
                sig = method_signature(f, i, types)
                inheritance.check_override(i, f.name, sig)
            except CompileError as e:
                if not protocols.is_dunder(f.name):
                    raise
                i.unusable[f.name] = str(e)  # a dunder nothing may call natively then
                continue
            i.methods[f.name] = sig
            if classmembers.decorator(f) == "property":
                if len(sig.params) != 1 or f.name in i.fields:
                    raise CompileError(f, "Property", f"property {f.name}: a getter taking only self, not a field")
                i.properties[f.name] = sig
        for f in i.static_defs():
            i.statics[f.name] = method_signature(classmembers.as_static(f, i), i, types, classmembers.STATIC_SELF)
        protocols.mark_eq(i)
    for i in order:
        classmembers.check_hierarchy(i)
        own = i.methods.get("__init__")
        inherited = i.base.init if i.base is not None else None
        i.init = own or (Sig([i.ty] + inherited.params[1:], NONE, False, ["self"] + inherited.names[1:],
                             defaults=inherited.defaults) if inherited else Sig([i.ty], NONE, False, ["self"]))
    return infos


def method_signature(f, info, classes, self_name="self"):
    a = f.args
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg:
        raise CompileError(f, "Parameters", "only plain positional parameters (with constant defaults) are "
                           "supported in methods")
    if not a.args or a.args[0].arg != self_name:
        raise CompileError(f, "MethodSelf", f"method {f.name} must take self first")
    params = [info.ty]
    for arg in a.args[1:]:
        if arg.annotation is None:
            raise CompileError(arg, "MissingAnnotation", f"parameter {arg.arg!r} needs a type annotation")
        params.append(annotation_type(arg.annotation, f"parameter {arg.arg!r}", classes))
    if f.returns is None and f.name != "__init__":
        raise CompileError(f, "MissingAnnotation", f"{info.name}.{f.name}() needs a return annotation")
    ret = NONE if f.returns is None else annotation_type(f.returns, f"return of {f.name}()", classes, allow_none=True)
    if f.name == "__init__" and ret != NONE:
        raise CompileError(f, "InitReturn", "__init__ returns None")
    defaults = {}
    for arg, d, t in zip(a.args[len(a.args) - len(a.defaults):], a.defaults, params[len(params) - len(a.defaults):]):
        # CPython evaluates a default once; a literal (or None for a class) is the same every call.
        if not (isinstance(d, ast.Constant) and ((d.value is None and t.kind == "class") or
                                                 (type(d.value).__name__ == t.kind and not t.mutable))):
            raise CompileError(d, "Default", f"default of {arg.arg!r}: a literal of its type (or None for a "
                               "class) is needed natively")
        defaults[arg.arg] = d
    return Sig(params, ret, False, [x.arg for x in a.args], defaults=defaults)


def init_prologue(info, self_var):
    """__init__ starts from the class-level defaults (what an unset field reads as in Python)."""
    out = []
    for name, const in info.defaults.items():
        value = ir.const_str(const.value) if isinstance(const.value, str) else {
            bool: ir.const_bool, int: ir.const_int, float: ir.const_float}[type(const.value)](const.value)
        out.append(ir.expr_stmt(ir.E(ir.fn("ast.ClassSetAttr")(self_var.node, name, value.node), NONE)))
    return out
