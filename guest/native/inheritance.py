"""Single inheritance, with CPython's meaning, and None as a class reference.

    class Task:                                  # a base: its fields come first
        def __init__(self, ident: int, link: Optional['Task']) -> None: ...
        def fn(self, pkt: Optional[Packet]) -> Optional['Task']: ...
    class DeviceTask(Task):
        def __init__(self, ident: int) -> None:
            super().__init__(ident, None)        # or Task.__init__(self, ident, None)
        def fn(self, pkt: Optional[Packet]) -> Optional[Task]: ...   # an override

Layout: a subclass's struct derives from its base's (C++ single
inheritance), so a base reference to a subclass instance is the same
pointer. Every class gets an id in preorder of the class forest, so the
subclasses of C are exactly the ids in [id(C), end(C)]: `isinstance` is a
range test, and a method call whose receiver's static class has
subclasses overriding the method goes through a dispatcher (`C.__dispatch_m`)
that switches on the object's id to the implementation CPython's method
resolution picks for that class. Overrides keep the parameter and result
types of the method they override (what a caller through the base sees).

None: `Optional[C]` is C natively, None being the null reference (CPython
does not enforce annotations, so any class-typed name may hold None).
Reading a field of None, calling a method on it or asking its class falls
back to CPython, which raises its AttributeError; `x is None`, `cast` and
`isinstance` see None as CPython does.
"""
import ast

from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import E
from .typemodel import BOOL, INT, NONE


def base_name(node, names):
    """The program class @p node derives from (None: only `object`); refuses the rest."""
    bases = [b for b in node.bases if not (isinstance(b, ast.Name) and b.id == "object")]
    if node.keywords:
        raise CompileError(node, "ClassBases", "a metaclass or class keywords are not supported")
    if not bases:
        return None
    if len(bases) > 1:
        raise CompileError(node.bases[1], "ClassBases", "multiple inheritance is not supported natively")
    b = bases[0]
    if not (isinstance(b, ast.Name) and b.id in names):
        raise CompileError(b, "ClassBases", f"base {ast.unparse(b)!r} is not a class of this program")
    return b.id


def number_classes(infos):
    """Give every ClassInfo its base, subclasses, id (preorder) and subtree end; returns
    the classes in preorder (each base before its subclasses)."""
    for i in infos.values():
        i.base = None
        i.subclasses = []
    for i in infos.values():
        name = base_name(i.node, infos)
        if name is not None:
            i.base = infos[name]
            i.base.subclasses.append(i)
    order = []

    def visit(i, path):
        if i.name in path:
            raise CompileError(i.node, "ClassBases", f"class {i.name} derives from itself")
        i.type_id = len(order)
        order.append(i)
        for s in i.subclasses:
            visit(s, path | {i.name})
        i.subtree_end = len(order) - 1

    roots = [i for i in infos.values() if i.base is None]
    for r in roots:
        visit(r, frozenset())
    if len(order) != len(infos):  # a cycle of bases has no root
        stuck = next(i for i in infos.values() if i not in order)
        raise CompileError(stuck.node, "ClassBases", f"class {stuck.name} derives from itself")
    return order


def ancestors(info):
    """@p info and its bases, nearest first (CPython's MRO for single inheritance)."""
    out = []
    while info is not None:
        out.append(info)
        info = info.base
    return out


def is_subclass(classes, name, ancestor):
    return any(a.name == ancestor for a in ancestors(classes[name]))


def subtree(info):
    out = [info]
    for s in info.subclasses:
        out += subtree(s)
    return out


def resolve(info, method):
    """(class that defines @p method for instances of @p info, its Sig) or (None, None)."""
    for a in ancestors(info):
        if method in a.methods:
            return a, a.methods[method]
    return None, None


def check_override(info, method, sig):
    """An override takes and returns what the method it overrides does (callers through the
    base lower their arguments for the base's signature)."""
    if method == "__init__" or info.base is None:
        return
    owner, base_sig = resolve(info.base, method)
    if owner is not None and (base_sig.params[1:] != sig.params[1:] or base_sig.ret != sig.ret):
        raise CompileError(info.node, "Override", f"{info.name}.{method}() changes the signature of "
                           f"{owner.name}.{method}()")


def cast(e, ty):
    """@p e (a class reference) as @p ty, a class of the same hierarchy."""
    if e.ty == ty:
        return e
    return E(ir.fn("ast.ClassRefOp")("cast", e.node, ty.node), ty, e.pure, e.borrowed)


def none_of(ty):
    """None as a reference to class @p ty."""
    return E(ir.fn("ast.ClassRefOp")("none", None, ty.node), ty, True)


def not_none(e):
    """@p e, or a fallback to CPython (its AttributeError) when it is None."""
    return E(ir.fn("ast.ClassRefOp")("not_none", e.node, e.ty.node), e.ty, False, e.borrowed)


def is_none(e, negate=False):
    test = E(ir.fn("ast.ClassRefOp")("is_none", e.node, e.ty.node), BOOL)
    return E(ir.fn("ast.PrimNot")(test.node), BOOL) if negate else test


def coerce(classes, e, expected):
    """A class reference where @p expected (a base class of it) is wanted: the same object."""
    if expected is None or expected.kind != "class" or e.ty.kind != "class" or e.ty == expected:
        return e
    if is_subclass(classes, e.ty.name, expected.name):
        return cast(e, expected)
    return e


class MethodCalls:
    """How a method call through a reference of static class C reaches its implementation."""

    def __init__(self, classes):
        self.classes = classes
        self.dispatchers = {}   # "C.__dispatch_m" -> PrimFunc

    def call(self, obj, method, args, node, receiver_is_self):
        """obj.method(*args): @p args already lowered for the method's parameters."""
        info = self.classes[obj.ty.name]
        owner, sig = resolve(info, method)
        if owner is None or method == "__init__":
            raise CompileError(node, "UnknownMethod", f"{info.name} has no method {method!r}")
        impls = {resolve(c, method)[0].name for c in subtree(info)}
        if len(impls) == 1:
            recv = obj if receiver_is_self else not_none(obj)
            return self.direct(owner, method, sig, cast(recv, owner.ty), args)
        name = self.dispatcher(info, method, sig)
        g = ir.fn("ast.GlobalVar")(name)
        return E(ir.fn("ast.PrimCall")(sig.ret.node, g, [obj.node] + [a.node for a in args]), sig.ret)

    @staticmethod
    def direct(owner, method, sig, recv, args):
        g = ir.fn("ast.GlobalVar")(f"{owner.name}.{method}")
        return E(ir.fn("ast.PrimCall")(sig.ret.node, g, [recv.node] + [a.node for a in args]), sig.ret)

    def dispatcher(self, info, method, sig):
        """`C.__dispatch_m(self, ...)`: the implementation for the object's class id (None falls back)."""
        name = f"{info.name}.__dispatch_{method}"
        if name in self.dispatchers:
            return name
        this = ir.var("self", info.ty)
        params = [this] + [ir.var(f"a{i}", t) for i, t in enumerate(sig.params[1:])]
        tid = ir.var("tid", INT)
        groups = {}
        for c in subtree(info):
            groups.setdefault(resolve(c, method)[0].name, []).append(c.type_id)
        body = [ir.stmt("AllocaVarStmt", tid.node, ir.fn("ast.ClassRefOp")("type_id", this.node, info.ty.node))]
        owners = list(groups)
        for i, owner_name in enumerate(owners):
            owner = self.classes[owner_name]
            call = self.direct(owner, method, sig, cast(this, owner.ty), params[1:])
            done = [ir.stmt("ReturnStmt", call.node)] if sig.ret != NONE else \
                [ir.expr_stmt(call), ir.stmt("ReturnStmt", None)]
            if i == len(owners) - 1:
                body += done
                break
            test = None
            for t in groups[owner_name]:
                eq = ir.binary("PrimEQ", tid, ir.const_int(t), BOOL)
                test = eq if test is None else ir.binary("PrimOr", test, eq, BOOL)
            body.append(ir.stmt("IfStmt", test.node, ir.seq(done), None))
        self.dispatchers[name] = ir.fn("ast.PrimFunc")(name, [p.node for p in params], [], ir.seq(body),
                                                       sig.ret.node)
        return name


def unbound_owner(node, classes, current):
    """For `Base.m(self, ...)` and `super().m(...)` inside a method of class @p current: the
    class whose m CPython calls (None if @p node is neither form)."""
    f = node.func
    if not isinstance(f, ast.Attribute):
        return None
    v = f.value
    if isinstance(v, ast.Name) and v.id in classes:
        start = classes[v.id]
    elif isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super" and not v.args \
            and not v.keywords:
        if current is None or classes[current].base is None:
            raise CompileError(node, "Super", "super() outside a method of a subclass")
        start = classes[current].base
    else:
        return None
    if current is None or not is_subclass(classes, current, start.name):
        raise CompileError(node, "UnboundMethod", f"{ast.unparse(f)}() outside a method of {start.name} "
                           "or a subclass")
    if f.attr == "__init__":
        return start  # every class has an __init__ (compiler.py makes one for a class without)
    owner, _ = resolve(start, f.attr)
    if owner is None:
        raise CompileError(node, "UnknownMethod", f"{start.name} has no method {f.attr!r}")
    return owner


def narrowing(node, scope):
    """(name, class Ty) when @p node is `if isinstance(name, C):` over a local of a base class
    of C that the body never rebinds: there name is a C, as mypy reads it (None is no C)."""
    t = node.test
    if not (isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id == "isinstance" and
            len(t.args) == 2 and isinstance(t.args[0], ast.Name) and isinstance(t.args[1], ast.Name)):
        return None
    name, cls = t.args[0].id, t.args[1].id
    classes = scope.module.classes
    var = scope.lookup(name)
    if var is None or var.ty.kind != "class" or cls not in classes or cls == var.ty.name or \
            not is_subclass(classes, cls, var.ty.name) or not scope.module_name("isinstance"):
        return None
    for stmt in node.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
                return None
    return name, classes[cls].ty


def module_instance(module, node):
    """The module-level instance @p node names (`area = WorkArea()`), one per loaded module."""
    name = node.id
    info = module.classes[module.names.instances[name]]
    if len(info.init.params) != 1:
        raise CompileError(node, "ModuleInstance", f"{name} = {info.name}(...): only instances made without "
                           "arguments are native")
    slot = sorted(module.names.instances).index(name)
    return E(ir.fn("ast.ModuleInstance")(name, slot, info.ty.node), info.ty)


def constant_truth(node, scope):
    """True/False when @p node names a module constant (its truth never changes), else None:
    `if tracing:` with `tracing = False` lowers only the branch CPython can take."""
    if isinstance(node, ast.Name) and scope.module_name(node.id) and node.id in scope.module.names.constants:
        return bool(scope.module.names.constants[node.id])
    return None
