"""simple_compile: Python function or source -> C++ AST -> C++ -> .so.

Arguments are copied into native containers at the call boundary, so a
native function must not change, keep or return the mutable objects it
was given (CPython would share them with the caller). Every function is
lowered under that rule: a parameter of a mutable type, and any variable
that may hold (part of) one, is read-only ("borrowed"); the set of such
variables, like the element types of `x = []`, is learned while lowering
and the function is lowered again until nothing new is learned
(scope.Restart). Functions whose signature holds a class instance are
native-only helpers; their parameters are native objects, not borrowed.
"""
import ast
import functools
import hashlib
import inspect
import os
import shutil
import subprocess
import tempfile
import textwrap

import spine_compiler

from . import boxed
from . import irbuilder as ir
from .calls import MUTATORS
from .classes import Sig, build_classes, init_prologue
from .classmembers import as_static
from .protocols import is_dunder
from .dataclassdefs import desugar_dataclasses
from .excclasses import split_exception_classes
from .defaultdicts import rewrite_defaultdicts
from .inheritance import MethodCalls
from .errors import CompileError
from .modulenames import ModuleNames
from .callables import function_values, strip_callable_takers
from .loader import factory_of_body, factory_of_state, state_name
from .crossing import mark_code_objects
from .factories import closure_factories
from .lambdas import inline_lambdas
from .nesting import called_names, is_lifted, lift_nested, parameters
from .optional import none_of
from .readonly import readonly_parameters
from .scope import OPTIONAL_GUESSES, Flow, FunctionScope, Knowledge, Restart
from .statements import StmtParser
from .typemodel import BOOL, FLOAT, INT, NONE, STR, dict_of, list_of, optional_of, set_of, tuple_of
from .typerules import annotation_type

# -O3 lets g++ unroll and inline the recursion of small functions; hidden
# visibility keeps every symbol but the exported registry local, and the
# initial-exec TLS model makes the recursion-depth counter a plain %fs access
# instead of a __tls_get_addr call per native frame (fib(27): 4.4 -> 0.4 ms).
# The counter is the runtime library's (spine/runtime/native_thread.h): a
# module with TLS of its own would take a slice of glibc's static TLS surplus,
# and after about a hundred loaded modules the next would fail to load.
# -O2 would compile the heaviest modules about 15% faster but runs fib 3x and spectral norm
# 2x slower (no recursive inlining, less vectorisation), so -O3 stays. -pipe keeps the
# assembly out of files.
CXXFLAGS = ["-std=c++17", "-O3", "-pipe", "-shared", "-fPIC", "-fno-plt", "-fvisibility=hidden",
            "-ftls-model=initial-exec"]
_MAX_PASSES = 64
_MUTATOR_NAMES = set().union(*MUTATORS.values())
_DEFAULT_ELEMENTS = {"list": list_of, "set": set_of, "optional": optional_of}


class ModuleInfo:
    """Signatures of the module's functions, the module's classes and its exception classes."""

    def __init__(self, functions, classes, names=None, mutated=None, readonly=None, raising=None, exceptions=None):
        self.functions = functions
        self.classes = classes
        self.exceptions = exceptions or {}  # name -> ExceptionClass (excclasses.py)
        self.mutated = mutated or {}  # function -> parameters it may change in place
        self.readonly = readonly or {}  # function -> parameters it only reads (readonly.py)
        self.raising = raising or set()  # functions whose calls may raise CPython's exceptions (boxed.py)
        self.names = names or ModuleNames()  # typing, math and constants (modulenames.py)
        self.method_calls = MethodCalls(classes)  # method dispatch through base references


def crosses(ty, result):
    """Can values of @p ty cross into/out of Python? (No class instances; None results are
    Python's None; sets cross with CPython's own table, codegen/pyset.h.)
    Mirrors SourceRewriter::IsExported."""
    if ty.kind == "class":
        return False
    return all(crosses(a, result) for a in ty.args)


def _signature(fdef, classes, names=None):
    a = fdef.args
    if a.vararg or a.kwarg:
        raise CompileError(fdef, "Parameters", "*args and **kwargs are not supported")
    if fdef.decorator_list:
        raise CompileError(fdef.decorator_list[0], "Decorator", "decorated functions are not supported")
    params = []
    for arg in parameters(fdef):
        if arg.annotation is None:
            raise CompileError(arg, "MissingAnnotation", f"parameter {arg.arg!r} needs a type annotation")
        params.append(annotation_type(arg.annotation, f"parameter {arg.arg!r}", classes))
    defaults = _defaults(fdef, params, names or ModuleNames())
    if fdef.returns is None:
        raise CompileError(fdef, "MissingAnnotation", f"{fdef.name}() needs a return annotation")
    ret = annotation_type(fdef.returns, f"return of {fdef.name}()", classes, allow_none=True)
    exported = crosses(ret, True) and all(crosses(p, False) for p in params)
    return Sig(params, ret, exported, [p.arg for p in parameters(fdef)], len(a.posonlyargs),
               len(a.posonlyargs) + len(a.args), defaults)


def _defaults(fdef, params, names):
    """Parameter name -> default value: constants of the parameter's (immutable) type, folded
    (CPython evaluates them once, at the def; a constant is the same every time)."""
    a = fdef.args
    positional = a.posonlyargs + a.args
    pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults))
    pairs += [(arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
    types = dict(zip([p.arg for p in parameters(fdef)], params))
    out = {}
    for arg, node in pairs:
        ty = types[arg.arg]
        value = None if isinstance(node, ast.Constant) and node.value is None else names.fold(node)
        if ty.kind == "object":  # any constant: the caller's binding passes the object itself
            out[arg.arg] = value
            continue
        if ty.kind == "optional" and (value is None or _value_type(value) == ty.args[0]):
            out[arg.arg] = value  # `key: Optional[int] = None`
            continue
        if value is None or ty.mutable or _value_type(value) != ty:
            raise CompileError(node, "Default", f"default of {arg.arg!r}: a constant of its type "
                               f"({ty.text}) is needed natively")
        out[arg.arg] = value
    return out


def _value_type(v):
    if isinstance(v, tuple):
        return tuple_of([_value_type(x) for x in v])
    return {bool: BOOL, int: INT, float: FLOAT, str: STR}[type(v)]


def _lower_function(fdef, module, sig, cls=None):
    """Lower until lowering learns nothing new (see module docstring)."""
    names = [a.arg for a in parameters(fdef)]
    borrowed = [n for n, t in zip(names, sig.params) if sig.exported and t.mutable]
    knowledge = Knowledge(borrowed)
    for _ in range(_MAX_PASSES):
        try:
            return _lower_once(fdef, module, sig, cls, knowledge)
        except Restart:
            continue
    raise CompileError(fdef, "Inference", f"{fdef.name}(): types did not settle")


def _lower_once(fdef, module, sig, cls, knowledge):
    name = f"{cls.name}.{fdef.name}" if cls else fdef.name
    scope = FunctionScope(name, module, knowledge)
    scope.bound = _bound_names(fdef)
    scope.mentioned = _mentioned_names(fdef)
    scope.message_names = _message_names(fdef)
    scope.handler_names = _message_names(fdef, any_use=True)
    # Boxed values raise CPython's exceptions: there `except` takes exception objects (exceptions.py).
    scope.boxed = (cls is None and fdef.name in module.raising) or boxed.uses_boxed(fdef, sig.params + [sig.ret]) \
        or boxed.has_boxed_locals(fdef, {n: c.ty for n, c in module.classes.items()}) \
        or boxed.calls_any(fdef, module.raising)
    if cls is None and sig.exported:
        scope.writable = _writable(fdef, sig, module.mutated.get(fdef.name, ()))
    is_init = cls is not None and fdef.name == "__init__"
    if is_init:
        scope.init_of = cls.name
    pvars = [scope.define(a.arg, t) for a, t in zip(parameters(fdef), sig.params)]
    scope.parameters = {a.arg for a in parameters(fdef)}
    flow = Flow([a.arg for a in parameters(fdef)] + ["self." + f for f in (cls.defaults if is_init else ())])
    parser = StmtParser(scope, sig.ret)
    try:
        body, end = parser.block(fdef.body, flow)
    except CompileError:
        if any(scope.pending[n].name == "optional" for n in scope.probed if n in scope.pending) and \
                knowledge.guess + 1 < len(OPTIONAL_GUESSES):
            knowledge.guess += 1  # `best = None` read before its first value: try the next stand-in
            raise Restart() from None
        if scope.probed:  # the error may come from a stand-in type: name the real cause
            _untyped(scope)
        raise
    if scope.probed:
        _untyped(scope)
    for var, pend in scope.pending.items():
        # Bound to an empty literal and never used: any type will do.
        knowledge.pin(var, _DEFAULT_ELEMENTS.get(pend.name, lambda t: dict_of(t, t))(ir.INT))
    if end.reachable and is_init:
        parser.exprs.flow = end
        parser.exprs.require_all_fields(fdef)
    if end.reachable and sig.ret.kind == "optional":
        body.append(ir.stmt("ReturnStmt", none_of(sig.ret).node))  # falling off the end returns None
    elif end.reachable and sig.ret != NONE:
        raise CompileError(fdef, "MissingReturn", f"{fdef.name}() may end without returning a value")
    decls = []
    for v in scope.hoisted:  # scalars start at zero, objects unset (definite assignment guards reads)
        zero = ir.zero(v.ty)
        decls.append(ir.stmt("AllocaVarStmt", v.node, zero.node if zero else None))
    prologue = init_prologue(cls, pvars[0]) if is_init else []
    func = ir.fn("ast.PrimFunc")(name, [v.node for v in pvars], [], ir.seq(decls + prologue + body), sig.ret.node)
    if scope.writable:
        func = ir.fn("ast.PrimFuncWriteBack")(func, [v.node for a, v in zip(parameters(fdef), pvars)
                                                     if a.arg in scope.writable])
    return func


def _writable(fdef, sig, changed):
    """The list, dict and set parameters of @p fdef that may be changed in place (copied
    back to the caller's object after the call; a set's table slot for slot, so the
    caller's set iterates and pops as CPython's would): of immutable elements
    (a changed element object would have to be the caller's own), never rebound (the
    caller's object is the one named), that the function changes (@p changed)."""
    extended = {id(n.target) for n in ast.walk(fdef) if isinstance(n, ast.AugAssign)}  # xs += ys: same list
    rebound = {n.id for n in ast.walk(fdef)
               if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and id(n) not in extended}
    return {a.arg for a, t in zip(parameters(fdef), sig.params)
            if a.arg in changed and t.kind in ("list", "dict", "set") and not any(e.mutable for e in t.args)
            and a.arg not in rebound}


def mutated_parameters(fdefs):
    """Function name -> the parameters it may change in place, read from the source:
    a mutating method called on it, an item assigned or deleted, `+=`, or passing it
    on to a function that changes that parameter (to a fixed point)."""
    params = {f.name: [a.arg for a in parameters(f)] for f in fdefs}
    changed, passes = {}, {}
    for f in fdefs:
        own, out, on = set(params[f.name]), set(), []
        for n in ast.walk(f):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                    and n.func.value.id in own and n.func.attr in _MUTATOR_NAMES:
                out.add(n.func.value.id)
            elif isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load) and \
                    isinstance(n.value, ast.Name) and n.value.id in own:
                out.add(n.value.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in own:
                out.add(n.target.id)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in params:
                callee = params[n.func.id]
                on += [(n.func.id, callee[i], a.id) for i, a in enumerate(n.args)
                       if isinstance(a, ast.Name) and a.id in own and i < len(callee)]
                on += [(n.func.id, k.arg, k.value.id) for k in n.keywords
                       if isinstance(k.value, ast.Name) and k.value.id in own]
        changed[f.name], passes[f.name] = out, on
    grown = True
    while grown:
        grown = False
        for name, on in passes.items():
            for callee, pname, arg in on:
                if pname in changed[callee] and arg not in changed[name]:
                    changed[name].add(arg)
                    grown = True
    return changed


def _bound_names(fdef):
    """Every name @p fdef binds anywhere (Python makes it local in the whole body, so a
    module constant of that name is never what it reads)."""
    names = {a.arg for a in parameters(fdef)}
    names.update(n.id for n in ast.walk(fdef) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    names.update(n.name for n in ast.walk(fdef) if isinstance(n, ast.ExceptHandler) and n.name)
    return names


def _mentioned_names(fdef):
    """Names @p fdef reads or binds, parameters included; not the cause of a `raise ... from e`,
    which CPython evaluates itself (native code hands every such raise back to it)."""
    causes = {id(n.cause) for n in ast.walk(fdef) if isinstance(n, ast.Raise) and n.cause is not None}
    names = {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name) and id(n) not in causes}
    return names | {a.arg for a in parameters(fdef)}


def _message_names(fdef, any_use=False):
    """The `except ... as n` names used only as `str(n)`, `repr(n)`, `type(n).__name__`,
    `isinstance(n, classes)`, `f"{n}"`, `f"{n!r}"`, raised again or as a raise's cause (with @p any_use, in any way), each
    inside a handler that binds n and not inside another one binding n again (after that one
    CPython unbinds n): native code reads those of the caught fault (exceptions.caught_reads;
    in a function with boxed values n is its exception object)."""
    handler_names = {h.name for h in ast.walk(fdef) if isinstance(h, ast.ExceptHandler) and h.name}
    bad = {a.arg for a in parameters(fdef)}
    allowed = set()
    # type(n) where .__name__ is read of it (an Attribute is walked before the call it holds).
    type_names = set()
    for n in ast.walk(fdef):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("str", "repr", "type") and \
                len(n.args) == 1 and not n.keywords and isinstance(n.args[0], ast.Name) and \
                (n.func.id != "type" or id(n) in type_names):
            allowed.add(id(n.args[0]))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance" and \
                len(n.args) == 2 and not n.keywords and isinstance(n.args[0], ast.Name):
            allowed.add(id(n.args[0]))
        elif isinstance(n, ast.Attribute) and n.attr == "__name__":
            type_names.add(id(n.value))
        elif isinstance(n, ast.FormattedValue) and n.conversion in (-1, ord("s"), ord("r")) and \
                n.format_spec is None and isinstance(n.value, ast.Name):
            allowed.add(id(n.value))
        elif isinstance(n, ast.Raise):
            allowed.update(id(e) for e in (n.exc, n.cause) if isinstance(e, ast.Name))

    def walk(node, inside):
        if isinstance(node, ast.ExceptHandler) and node.name:
            if node.name in inside:
                bad.add(node.name)
            inside = inside | {node.name}
        if isinstance(node, ast.Name) and (not isinstance(node.ctx, ast.Load) or node.id not in inside or
                                           not (any_use or id(node) in allowed)):
            bad.add(node.id)
        for child in ast.iter_child_nodes(node):
            walk(child, inside)

    walk(fdef, frozenset())
    return handler_names - bad - {"str"}


def respell_annotations(tree, names, strict=True):
    """Spell the typing names of every annotation of @p tree as the builtins they mean
    (not @p strict: one that cannot be is left as written, for its function to report). A class's
    dunder methods are never strict: one that does not compile only refuses its uses (protocols.py)."""
    lenient = {id(n) for c in tree.body if isinstance(c, ast.ClassDef) for f in c.body
               if isinstance(f, ast.FunctionDef) and _is_protocol(f) for n in ast.walk(f)}

    def respell(node):
        try:
            return names.annotation(node)
        except CompileError:
            if strict and id(node) not in lenient:
                raise
            return node

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                a.annotation = respell(a.annotation)
            node.returns = respell(node.returns)
        elif isinstance(node, ast.AnnAssign):
            node.annotation = respell(node.annotation)


def _untyped(scope):
    name, node = next(iter(scope.probed.items()))
    raise CompileError(node, "EmptyLiteral", f"the element types of {name!r} are not known here and nothing "
                       f"later tells them; annotate it ({name}: list[int] = [])")


def _synthetic_init(info):
    """A class without __init__: CPython runs the nearest base's __init__ (here a call of the
    base's, whose arguments the class takes), then the defaults are the whole construction."""
    inherited = info.fields.keys() - info.base.fields.keys() if info.base else info.fields.keys()
    missing = [f for f in inherited if f not in info.defaults]
    if missing:
        raise CompileError(info.node, "FieldUnassigned", f"{info.name} has no __init__ and field {missing[0]!r} "
                           "has no default")
    body = [ast.Pass()]
    names = [f"a{i}" for i in range(len(info.init.params) - 1)]
    if info.base is not None:
        call = ast.Call(ast.Attribute(ast.Name(info.base.name, ast.Load()), "__init__", ast.Load()),
                        [ast.Name("self", ast.Load())] + [ast.Name(n, ast.Load()) for n in names], [])
        body = [ast.Expr(call)]
    f = ast.FunctionDef("__init__", ast.arguments([], [ast.arg("self")] + [ast.arg(n) for n in names], None, [], [],
                                                  None, []), body, [], None, None)
    return ast.fix_missing_locations(ast.copy_location(f, info.node))


def _split(source, kept=None):
    """Top-level functions, classes and module names (typing and math imports,
    constants) of @p source; other statements are refused. @p kept: see parse_module."""
    tree = ast.parse(textwrap.dedent(source))
    mark_code_objects(tree)
    lift_nested(tree)
    closure_factories(tree, kept=kept)
    function_values(tree)
    strip_callable_takers(tree)
    inline_lambdas(tree)
    fdefs, cdefs, names = [], [], ModuleNames()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            fdefs.append(node)
        elif isinstance(node, ast.ClassDef):
            cdefs.append(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        elif not names.take(node):
            raise CompileError(node, type(node).__name__, "only function and class definitions, typing and math "
                               "imports and constants may appear at top level")
    if not fdefs:
        raise CompileError(tree, "Module", "no function to compile")
    respell_annotations(tree, names)
    desugar_dataclasses(cdefs, names)
    rewrite_defaultdicts(fdefs + [m for c in cdefs for m in c.body if isinstance(m, ast.FunctionDef)], names)
    return fdefs, cdefs, names


class _PieceFailed(Exception):
    """A function failed to compile (@p error): which one, for parse_module."""

    def __init__(self, name, error):
        super().__init__(str(error))
        self.name, self.error = name, error


def _module_info(fdefs, cdefs, names=None):
    cdefs, exceptions = split_exception_classes(cdefs, names)
    classes = build_classes(cdefs, names)
    types = {n: c.ty for n, c in classes.items()}
    signatures = {}
    for f in fdefs:
        if f.name in signatures or f.name in classes or f.name in exceptions:
            raise CompileError(f, "Redefinition", f"{f.name!r} defined twice")
        try:
            signatures[f.name] = _signature(f, types, names)
        except CompileError as e:
            raise _PieceFailed(f.name, e) from None
    return ModuleInfo(signatures, classes, names, mutated_parameters(fdefs), readonly_parameters(fdefs),
                      boxed.raising_python(fdefs, signatures, types), exceptions)


def _lower_classes(module):
    """The methods of every class. A dunder that does not compile leaves the class (its uses are
    refused, protocols.py) instead of failing it; dunders first, until none fails, as one may
    call another, so that the other methods (and the module's functions) see which remain."""
    out = _lower_dunders(module)
    for info in module.classes.values():
        defs = [f for f in info.method_defs() if not _is_protocol(f)]
        if "__init__" not in info.methods:
            defs = [_synthetic_init(info)] + defs
        for f in defs:
            out.append(_lower_function(f, module, info.methods.get(f.name, info.init), info))
        for f in info.static_defs():
            out.append(_lower_function(as_static(f, info), module, info.statics[f.name], info))
    return out


def _is_protocol(f):
    return is_dunder(f.name) and f.name != "__init__"


def _lower_dunders(module):
    while True:
        out, failed = [], False
        for info in module.classes.values():
            for f in info.method_defs():
                if not _is_protocol(f) or f.name not in info.methods:
                    continue
                try:
                    out.append(_lower_function(f, module, info.methods[f.name], info))
                except CompileError as e:
                    info.unusable[f.name] = str(e)
                    del info.methods[f.name]
                    failed = True
        if not failed:
            break
    gone = {f"{c.name}.__dispatch_{m}" for c in module.classes.values() for m in c.unusable}
    for name in gone & module.method_calls.dispatchers.keys():
        del module.method_calls.dispatchers[name]
    return out


def parse_module(source, kept=None):
    """Lower every top-level function (and the methods of every class) of @p source;
    returns the PrimFunc objects in order. A factory whose closures cannot cross into
    Python (crossing.py) is still compiled for native callers, and mapped to why in
    @p kept (a dict) if given."""
    fdefs, cdefs, names = _split(source, kept)
    while True:
        try:
            return _lower_module(fdefs, cdefs, names)
        except _PieceFailed as e:
            factory = factory_of_body(e.name)
            if factory is None:
                stays = (kept or {}).get(factory_of_state(e.name))
                if stays is not None:  # why Python's callers do not get it natively comes first
                    error = e.error
                    where = ast.Pass(lineno=error.line, col_offset=error.col)
                    raise CompileError(where, error.construct, f"{stays} (and it does not compile natively: "
                                       f"{error})") from None
                raise e.error from None
            # Python's callers of the factory keep CPython's version; native callers still run it.
            fdefs = [f for f in fdefs if factory_of_body(f.name) != factory]
            if kept is not None:
                kept[factory] = f"{factory}() returns a closure that stays Python for Python callers: {e.error}"


def _lower_module(fdefs, cdefs, names):
    module = _module_info(fdefs, cdefs, names)
    methods = _lower_classes(module)  # first: the functions see which dunders compile
    funcs = []
    for f in fdefs:
        try:
            funcs.append(_lower_function(f, module, module.functions[f.name]))
        except CompileError as e:
            raise _PieceFailed(f.name, e) from None
    funcs += methods
    return funcs + list(module.method_calls.dispatchers.values())


def check_eligible(source):
    """For each top-level function of a whole program @p source: (name, None) if it
    compiles natively and Python can call it, else (name, reason). Statements other
    than definitions are ignored; a function that calls an ineligible one is ineligible."""
    tree = ast.parse(textwrap.dedent(source))
    written = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    lift_refused, kept = {}, {}
    mark_code_objects(tree)
    lift_nested(tree, lift_refused)
    crossing = closure_factories(tree, lift_refused, kept)
    function_values(tree, lift_refused)
    strip_callable_takers(tree, lift_refused)
    inline_lambdas(tree, lift_refused)
    fdefs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    cdefs = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    names = ModuleNames()
    for node in tree.body:
        try:
            names.take(node)
        except CompileError:
            pass  # a constant that does not fold: functions reading it report the name
    respell_annotations(tree, names, strict=False)
    reasons = dict(lift_refused)
    exceptions = {}
    try:
        cdefs, exceptions = split_exception_classes(cdefs, names)
        desugar_dataclasses(cdefs, names)
        rewrite_defaultdicts([m for c in cdefs for m in c.body if isinstance(m, ast.FunctionDef)], names)
        classes = build_classes(cdefs, names)
    except CompileError as e:
        classes, class_error = {}, str(e)
    else:
        class_error = None
    types = {n: c.ty for n, c in classes.items()}
    signatures = {}
    for f in fdefs:
        try:
            rewrite_defaultdicts([f], names)
            signatures[f.name] = _signature(f, types, names)
        except CompileError as e:
            reasons.setdefault(f.name, str(e))  # a reason found before (a factory's, say) is the first cause
    module = ModuleInfo(signatures, classes, names, mutated_parameters(fdefs), readonly_parameters(fdefs),
                        boxed.raising_python(fdefs, signatures, types), exceptions)
    try:
        _lower_classes(module)
    except CompileError as e:
        class_error = class_error or str(e)
    calls, helpers = {}, set()
    for f in fdefs:
        calls[f.name] = called_names(f)
        if f.name in reasons:
            continue
        if class_error and any(isinstance(n, ast.Name) and n.id in {c.name for c in cdefs} for n in ast.walk(f)):
            reasons[f.name] = f"uses a class that does not compile: {class_error}"
            continue
        try:
            _lower_function(f, module, signatures[f.name])
        except CompileError as e:
            reasons[f.name] = str(e)
            continue
        if not signatures[f.name].exported:
            reasons[f.name] = "class instances cannot cross into Python"
            helpers.add(f.name)  # native code may still call it
    for factory, (state, *bodies) in crossing.items():  # Python's callers get its closures natively
        bad = next((p for p in [state] + bodies if p in reasons), None)
        if bad == state:
            reasons[factory] = reasons[state]
        elif bad is not None:
            kept[factory] = reasons[factory] = f"{factory}() returns a closure that stays Python for Python " \
                f"callers: {reasons[bad]}"
    for factory, why in kept.items():
        state = state_name(factory)
        reasons[factory] = why + (f" (and it does not compile natively: {reasons[state]})" if state in reasons else
                                  "; native callers run it natively and get the closure's captures by value")
    changed = True
    while changed:  # calling an ineligible function makes the caller ineligible
        changed = False
        for f in fdefs:
            bad = sorted(c for c in calls[f.name] if c in signatures and c in reasons and c != f.name
                         and c not in helpers)
            if f.name not in reasons and bad:
                # A lifted function or specialised copy has no name of the user's: say why it failed.
                reasons[f.name] = f"calls {bad[0]}(), which is not eligible" + \
                    (f" ({reasons[bad[0]]})" if is_lifted(bad[0]) else "")
                changed = True
    return [(name, reasons.get(name)) for name in written]


def _source_of(function_or_source):
    if isinstance(function_or_source, str):
        return function_or_source
    if inspect.isfunction(function_or_source):
        return _with_classes(textwrap.dedent(inspect.getsource(function_or_source)), function_or_source.__globals__)
    raise TypeError("simple_compile() takes a function or source text")


def _with_classes(source, namespace):
    """@p source preceded by the sources of the classes it names (the compiler
    takes the classes a function constructs from its globals), and of the classes those name."""
    sources, seen, todo = [], set(), [source]
    while todo:
        for node in ast.walk(ast.parse(todo.pop())):
            name = node.id if isinstance(node, ast.Name) else None
            cls = namespace.get(name) if name else None
            if inspect.isclass(cls) and name not in seen:
                seen.add(name)
                try:
                    text = textwrap.dedent(inspect.getsource(cls))
                except (OSError, TypeError):
                    continue  # no source (built in, or made at run time): the frontend reports the name
                sources.append(text)
                todo.append(text)
    return "\n".join(sources[::-1] + [source])


def to_cpp(function_or_source):
    """The C++ module source for a function or source text."""
    funcs = parse_module(_source_of(function_or_source))
    return ir.fn("rewriter.BuildFunctions")(funcs)


# The one header generated C++ includes, as its first line (source_rewriter.cc), so a
# precompiled copy of it applies.
SUPPORT_HEADER = "spine/compiler/codegen_support.h"
_precompiled = []  # -I of a precompiled SUPPORT_HEADER that matches the headers (use_precompiled)


def _cxx():
    return os.environ.get("CXX") or shutil.which("g++") or "g++"


def compiler_command(cpp_path, so_path):
    """g++'s command line for a module. It links against the runtime library this process
    loaded (DT_NEEDED by its soname), where the per-thread state of native code lives
    (spine/runtime/native_thread.h): a module keeps no TLS of its own. The runtime library
    is also where its C++ runtime comes from, never libstdc++.so.6 (module_link_flags,
    cmake/cxx_runtime.cmake): throw and catch meet in the process's one copy."""
    includes = ["-I" + d for d in spine_compiler.include_path.split(":") if d]
    return [_cxx(), *CXXFLAGS, *_linker(), *_precompiled, *includes, cpp_path, spine_compiler.runtime_library,
            *spine_compiler.module_link_flags.split(), "-o", so_path]


@functools.cache
def _linker():
    """gold where installed: it links a module in about a third of the time GNU ld takes
    (23 against 58 ms of CPU for a one-function module), the same object either way."""
    return ("-fuse-ld=gold",) if shutil.which("ld.gold") else ()


def headers_digest(include_dir):
    """SHA-256 of every header under @p include_dir (names and contents)."""
    h = hashlib.sha256()
    for root, _, files in sorted(os.walk(include_dir)):
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(os.path.relpath(path, include_dir).encode() + b"\0")
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def precompile_header(include_dir, pch_dir):
    """Build SUPPORT_HEADER.gch under @p pch_dir with the flags modules are compiled with,
    and beside it the digest of the headers it was built from (make installs both into
    the toolchain): parsing the header is 20-40 ms of every module's compile, loading the
    precompiled copy a few. It lives apart from the header, so that only use_precompiled
    puts it on the include path."""
    target = os.path.join(pch_dir, SUPPORT_HEADER + ".gch")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".spine-", suffix=".gch", dir=os.path.dirname(target))
    os.close(fd)
    try:
        subprocess.run([_cxx(), *CXXFLAGS, "-I" + include_dir, "-x", "c++-header",
                        os.path.join(include_dir, SUPPORT_HEADER), "-o", tmp], check=True, capture_output=True)
        os.chmod(tmp, 0o644)  # read by whoever compiles, like the header
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    with open(os.path.join(pch_dir, "headers.sha256"), "w") as f:
        f.write(headers_digest(include_dir))


def use_precompiled(include_dir, pch_dir):
    """Compile with the precompiled header of @p pch_dir if it was built from the headers
    of @p include_dir as they are now. g++ takes a .gch found before the header without
    comparing it with the header, and rejects it only for another compiler or other flags
    (then it reads the header, as without one): a header changed after the build must not
    be hidden behind a stale copy. Returns whether it is used."""
    try:
        with open(os.path.join(pch_dir, "headers.sha256")) as f:
            built_from = f.read().strip()
    except OSError:
        built_from = None
    fresh = built_from == headers_digest(include_dir) and os.path.exists(os.path.join(pch_dir, SUPPORT_HEADER + ".gch"))
    _precompiled[:] = ["-I" + pch_dir] if fresh else []
    return fresh


def exported_names(funcs):
    """Names of the functions Python can call (the module's registry): a closure factory's
    where its state function and every closure body are exported (loader.py, native_factory)."""
    every = [ir.fn("runtime.NodeGetAttr")(f, "name") for f in funcs]
    names = [n for f, n in zip(funcs, every) if ir.fn("rewriter.IsExported")(f)]
    out = []
    for n in names:
        factory = factory_of_state(n)
        if factory is not None:
            bodies = [b for b in every if factory_of_body(b) == factory]
            if bodies and all(b in names for b in bodies):
                out.append(factory)
        elif not is_lifted(n):
            out.append(n)
    return out


def simple_compile(function_or_source, path):
    """Compile a typed function (or every function of a source text) into the
    shared object @p path; returns the names Python can call. The C++ is
    kept next to it as @p path + ".cc". Raises CompileError for unsupported
    code and RuntimeError if the C++ compiler fails."""
    funcs = parse_module(_source_of(function_or_source))
    cpp = ir.fn("rewriter.BuildFunctions")(funcs)
    names = exported_names(funcs)
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    with open(path + ".cc", "w") as f:
        f.write(cpp)
    # Build into a private name and rename: a reader never sees a half-written module.
    fd, tmp = tempfile.mkstemp(prefix=".spine-", suffix=".so", dir=directory)
    os.close(fd)
    try:
        r = subprocess.run(compiler_command(path + ".cc", tmp), capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"C++ compilation failed:\n{r.stderr}")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return names
