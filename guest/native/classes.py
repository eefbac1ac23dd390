"""Class family: a module-level class with typed fields and methods.

    class Point:
        x: int                    # a field (or `self.x: int = ...` in __init__,
        label: str = ""           # or `self.x = <parameter>` / `= <constant>`)
        def __init__(self, x: int) -> None: ...
        def norm(self) -> int: ...

Instances are shared references, as in Python. Only what native code can
reproduce exactly is accepted: no base classes, decorators, class-level
mutable values or dunder methods other than __init__; a field may not
(even indirectly) have the class's own type, so instances never form
reference cycles. Every field is set by __init__ (or has a default) before
the instance is used as a whole. Instances never cross into Python:
functions taking or returning them are native-only helpers.
"""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .typemodel import NONE, Ty
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
        self.fields = {}      # name -> Ty, in declaration order
        self.defaults = {}    # name -> ast.Constant
        self.methods = {}     # name -> Sig (self first)
        self.init = None      # Sig of __init__

    def method_defs(self):
        return [s for s in self.node.body if isinstance(s, ast.FunctionDef)]


def check_class(node):
    if node.bases or node.keywords:
        raise CompileError(node, "ClassBases", "classes with bases or a metaclass are not supported")
    if node.decorator_list:
        raise CompileError(node.decorator_list[0], "Decorator", "decorated classes are not supported")
    for s in node.body:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue
        if isinstance(s, (ast.AnnAssign, ast.Pass)):
            continue
        if isinstance(s, ast.FunctionDef):
            if s.decorator_list:
                raise CompileError(s.decorator_list[0], "Decorator", "decorated methods are not supported")
            if s.name.startswith("__") and s.name != "__init__":
                raise CompileError(s, "DunderMethod", f"method {s.name} is not supported natively")
            continue
        raise CompileError(s, "ClassBody", f"{type(s).__name__} in a class body (fields: `name: T`, and methods)")


def collect_fields(info, classes):
    """Field types from the class body and from __init__'s `self.x` assignments."""
    for s in info.node.body:
        if not isinstance(s, ast.AnnAssign):
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


def _uses(ty, out):
    if ty.kind == "class":
        out.add(ty.name)
    for a in ty.args:
        _uses(a, out)


def build_classes(nodes):
    """ClassInfo per class, with typed fields and C++ ClassType nodes built fields-first."""
    infos = {n.name: ClassInfo(n) for n in nodes}
    types = {name: i.ty for name, i in infos.items()}
    for i in infos.values():
        check_class(i.node)
        collect_fields(i, types)
    done, order = set(), []

    def visit(name, path):
        if name in done:
            return
        if name in path:
            raise CompileError(infos[name].node, "RecursiveClass", f"class {name} refers to itself through its "
                               "fields; instances could form cycles")
        deps = set()
        for t in infos[name].fields.values():
            _uses(t, deps)
        for d in sorted(deps):
            visit(d, path | {name})
        done.add(name)
        order.append(name)

    for name in infos:
        visit(name, frozenset())
    for name in order:
        i = infos[name]
        i.ty._node = ir.fn("ast.ClassType")(name, list(i.fields), [t.node for t in i.fields.values()])
    for i in infos.values():
        for f in i.method_defs():
            i.methods[f.name] = method_signature(f, i, types)
        i.init = i.methods.get("__init__") or Sig([i.ty], NONE, False)
    return infos


def method_signature(f, info, classes):
    a = f.args
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults:
        raise CompileError(f, "Parameters", "only plain positional parameters without defaults are supported")
    if not a.args or a.args[0].arg != "self":
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
    return Sig(params, ret, False)


def init_prologue(info, self_var):
    """__init__ starts from the class-level defaults (what an unset field reads as in Python)."""
    out = []
    for name, const in info.defaults.items():
        value = ir.const_str(const.value) if isinstance(const.value, str) else {
            bool: ir.const_bool, int: ir.const_int, float: ir.const_float}[type(const.value)](const.value)
        out.append(ir.expr_stmt(ir.E(ir.fn("ast.ClassSetAttr")(self_var.node, name, value.node), NONE)))
    return out
