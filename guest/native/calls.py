"""Expression family, calls: module functions, class construction and
methods, container and str methods, and the built-in functions the subset
knows. Keyword arguments exist only where Python code commonly needs them
(sort/sorted reverse=)."""
import ast

from . import boxed
from . import irbuilder as ir
from . import optional
from . import inheritance
from . import classmembers
from . import protocols
from . import formatting
from . import strmethods
from .divmodcall import divmod_call
from .floatsum import float_sum
from .numericcalls import NUMERIC_CALLS
from .tuplesearch import tuple_count, tuple_index
from .listmodules import LIST_MUTATORS, LIST_STORING, list_module_call
from .errors import CompileError
from .modulenames import value_node
from .irbuilder import E
from .typemodel import (BOOL, FLOAT, INT, NONE, OBJECT, STR, dict_of, fresh_borrowed, from_node, list_of, set_of,
                        vtuple_of)

# Methods that change their receiver (a borrowed receiver is read-only).
MUTATORS = {
    "list": {"append", "pop", "insert", "extend", "remove", "clear", "reverse", "sort"} | LIST_MUTATORS,
    "dict": {"pop", "setdefault", "clear", "update"},
    "set": {"add", "discard", "remove", "clear", "update", "pop", "intersection_update", "difference_update",
            "symmetric_difference_update"},
    "str": set(),
    "vtuple": set(),  # count() only (method_table.cc)
}
# Methods whose arguments end up inside the receiver.
_STORING = {"append", "insert", "extend", "setdefault", "update", "add"} | LIST_STORING
_VIEWS = {"keys", "values", "items"}
# s | t, s & t, s - t, s ^ t: the set methods CPython's operators run (the same loops).
SET_ALGEBRA = {ast.BitOr: "union", ast.BitAnd: "intersection", ast.Sub: "difference",
               ast.BitXor: "symmetric_difference"}
BUILTINS = {"len", "str", "int", "float", "bool", "abs", "min", "max", "sum", "sorted", "list", "set", "dict",
            "ord", "chr", "any", "all", "tuple"}
ITERATION_ONLY = {"range", "enumerate", "zip"}
# The math functions native code computes (codegen/pymath.h).
MATH_FUNCTIONS = {"sqrt", "exp", "exp2", "expm1", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                  "tanh", "fabs", "cbrt", "log", "log2", "log10", "log1p", "degrees", "radians", "atan2",
                  "copysign", "fmod", "pow", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite", "gcd",
                  "isqrt", "factorial"}
# format(), repr(), divmod(), round(), pow(), bin(), oct(), hex(): formatting.py, divmodcall.py, numericcalls.py.
_TEXT_AND_PAIR_CALLS = {"format": formatting.format_call, "repr": formatting.repr_call, "divmod": divmod_call,
                        **NUMERIC_CALLS}
# What the scalar types' constructors return without an argument.
_EMPTY_VALUES = {"int": lambda: ir.const_int(0), "float": lambda: ir.const_float(0.0), "str": lambda: ir.const_str(""),
                 "bool": lambda: ir.const_bool(False)}
# isinstance(x, T): the static kinds that are instances of T (bool is an int).
ISINSTANCE_KINDS = {"int": ("int", "bool"), "bool": ("bool",), "float": ("float",), "str": ("str",),
                    "list": ("list",), "dict": ("dict",), "set": ("set",), "tuple": ("tuple", "vtuple")}


class CallExprs:
    """Mixed into ExprParser (exprparser.py)."""

    def visit_Call(self, node, expected=None):
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise CompileError(node, "CallStar", "*args / **kwargs in a call")
        f = node.func
        if isinstance(f, ast.Lambda):
            return self.call_lambda(node)
        names = self.scope.module.names
        if isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Name) and f.value.id in names.typing_modules and f.attr == "cast" and \
                    self.scope.module_name(f.value.id):
                return self.typing_cast(node)
            if names.math_name(f) is not None and self.scope.module_name(f.value.id):
                return self.math_call(node, names.math_name(f))
            if names.list_function(f) is not None and self.scope.module_name(f.value.id):
                return list_module_call(self, node, *names.list_function(f))
            if f.attr == "format" and isinstance(f.value, ast.Constant) and isinstance(f.value.value, str):
                return formatting.str_format_call(self, node)
            return self.method_call(node, expected)
        if not isinstance(f, ast.Name):
            raise CompileError(node, "Call", f"call of {ast.unparse(f)!r}")
        name = f.id
        if self.scope.is_local(name):
            raise CompileError(node, "Call", f"call of the local {name!r}")
        if name in ITERATION_ONLY:
            raise CompileError(node, "IterableOnly", f"{name}() is supported as the iterable of a for loop "
                               "or comprehension only")
        if name in self.scope.signatures:
            return self.function_call(node, name)
        if name in self.scope.module.classes:
            return self.construct(node, name)
        if name in BUILTINS:
            return self.builtin(node, name, expected)
        if name in names.math and self.scope.module_name(name):
            return self.math_call(node, names.math[name])
        if name == "isinstance" and self.scope.module_name(name):
            return self.isinstance_call(node)
        if name in names.list_functions and self.scope.module_name(name):
            return list_module_call(self, node, *names.list_functions[name])
        if name in _TEXT_AND_PAIR_CALLS and self.scope.module_name(name):
            return _TEXT_AND_PAIR_CALLS[name](self, node)
        if names.typing.get(name) == "cast" and self.scope.module_name(name):
            return self.typing_cast(node)
        if name == "print" and self.scope.module_name(name):
            raise CompileError(node, "Print", "print() used as a value (a statement of its own only)")
        raise CompileError(node, "Call", f"call of {name!r}")

    def math_call(self, node, name):
        """math.<name>(...): codegen/pymath.h, whose math_<name> has CPython's meaning."""
        op = "math_log_base" if name == "log" and len(node.args) == 2 else "math_" + name
        if name not in MATH_FUNCTIONS:
            raise CompileError(node, "Math", f"math.{name} is not compiled natively")
        self.keywords(node, ())
        args = [self.value(a) for a in node.args]
        ty = INT if name in ("floor", "ceil", "trunc", "gcd", "isqrt", "factorial") else \
            BOOL if name.startswith("is") and name != "isqrt" else FLOAT
        try:
            return ir.call_op(op, args, ty)
        except (TypeError, ValueError) as e:
            raise CompileError(node, "Math", f"math.{name}(): {str(e).split('): ', 1)[-1]}") from None

    def isinstance_call(self, node):
        """isinstance(x, T) of a statically typed x: known when compiling (x is evaluated first)."""
        self.keywords(node, ())
        if len(node.args) != 2:
            raise CompileError(node, "Builtin", "isinstance() takes 2 arguments")
        value = self.value(node.args[0], keep_optional=True)
        kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        if value.ty == OBJECT:
            return boxed.isinstance_test(self.scope, node, value, kinds)
        static = value.ty.args[0] if value.ty.kind == "optional" else value.ty  # None is an instance of none
        answer = False
        classes = self.scope.module.classes
        if value.ty.kind == "class" and all(isinstance(k, ast.Name) and k.id in classes for k in kinds):
            return self.isinstance_class(value, [classes[k.id] for k in kinds])
        for k in kinds:
            if isinstance(k, ast.Name) and k.id in classes and value.ty.kind != "class":
                continue  # a program class: no value of another static kind is one of its instances
            if not (isinstance(k, ast.Name) and k.id in ISINSTANCE_KINDS and self.scope.module_name(k.id)):
                raise CompileError(k, "Builtin", f"isinstance() of {ast.unparse(k)!r}")
            if value.ty.kind == "class" and getattr(classes[value.ty.name].dataclass, "named_tuple", False):
                raise CompileError(k, "NamedTuple", f"isinstance() of a {value.ty.name} (a NamedTuple, a tuple in "
                                   "CPython) with a builtin type")
            answer = answer or static.kind in ISINSTANCE_KINDS[k.id]
        t = value if value.pure else self.scope.temp("isinstance", value.ty)
        result = ir.const_bool(answer)
        if answer and value.ty.kind == "optional":  # isinstance(x, int) of an Optional[int]: x is not None
            result = E(ir.fn("ast.PrimNot")(optional.is_none(t).node), BOOL)
        return result if value.pure else ir.let(t, value, result)

    def isinstance_class(self, value, targets):
        """isinstance(x, C) of a class reference: known when compiling if x's static class is
        C or derives from it (None is no instance), else a test of its class id."""
        x = value if value.pure else self.scope.temp("isinstance", value.ty)
        result = None
        for c in targets:
            if inheritance.is_subclass(self.scope.module.classes, value.ty.name, c.name):
                test = inheritance.is_none(x, negate=True)
            elif inheritance.is_subclass(self.scope.module.classes, c.name, value.ty.name):
                test = E(ir.fn("ast.ClassRefOp")("isinstance", x.node, c.ty.node), BOOL)
            else:
                test = ir.const_bool(False)
            result = test if result is None else ir.binary("PrimOr", result, test, BOOL)
        return result if value.pure else ir.let(x, value, result)

    def typing_cast(self, node):
        """typing.cast(C, x): CPython returns x unchanged; natively x must then be a C (or None),
        else the call falls back and CPython carries on with x as it is."""
        self.keywords(node, ())
        if len(node.args) != 2:
            raise CompileError(node, "Builtin", "cast() takes 2 arguments")
        t, x = node.args
        classes = self.scope.module.classes
        if not (isinstance(t, ast.Name) and t.id in classes):
            raise CompileError(t, "Cast", f"cast() to {ast.unparse(t)!r} (program classes only natively)")
        value = self.value(x)
        target = classes[t.id].ty
        if value.ty.kind != "class" or not (inheritance.is_subclass(classes, value.ty.name, t.id) or
                                            inheritance.is_subclass(classes, t.id, value.ty.name)):
            raise CompileError(node, "Cast", f"cast() of {value.ty.text} to {t.id}")
        if inheritance.is_subclass(classes, value.ty.name, t.id):
            return inheritance.cast(value, target)
        return E(ir.fn("ast.ClassRefOp")("checked_cast", value.node, target.node), target, False, value.borrowed)

    def keywords(self, node, allowed):
        out = {}
        for k in node.keywords:
            if k.arg not in allowed:
                raise CompileError(node, "CallKeywords", f"keyword argument {k.arg!r}")
            out[k.arg] = k.value
        return out

    def typed_args(self, node, params, what, internal, callee=None):
        """Arguments of exactly the parameter types, in order (@p callee: the module function called)."""
        self.keywords(node, ())
        if len(node.args) != len(params):
            raise CompileError(node, "CallSignature", f"{what} takes {len(params)} argument(s)")
        args = []
        for i, (a, p) in enumerate(zip(node.args, params)):
            e = self.argument(a, p, what, callee, callee and self.scope.signatures[callee].names[i])
            if e.ty != p:
                raise CompileError(a, "CallSignature", f"{what}: argument of type {e.ty.text}, parameter is {p.text}")
            if internal:
                self.no_borrowed_store(a, e, f"passing it to {what}")
            args.append(e)
        return args

    def argument(self, a, p, what, callee, pname):
        """Argument @p a for parameter @p p of @p what (module function @p callee's parameter @p pname;
        None for a method). A typed container for a parameter of boxed values (bare list/dict, Any,
        object) is a new Python object built from it, a copy (boxed.rebox); CPython passes the object
        itself. The copy is exact for a new container (a literal, a call's result) of immutable
        elements, or for a variable's (or field's, or item's) when the callee only reads that
        parameter (readonly.py)."""
        shared = isinstance(a, (ast.Name, ast.Attribute, ast.Subscript)) and \
            not (isinstance(a, ast.Name) and a.id in self.scope.pending)
        e = None
        if shared and (p == OBJECT or p.kind in ("list", "dict")):
            try:
                e = self.value(a)
            except CompileError:
                e = None  # it takes its type from the parameter: read it as that below
        if e is None or e.ty == p or e.ty.kind not in ("list", "dict", "set"):
            e = self.value(a, p)
            if e.ty != p and boxed.reboxable(e.ty, p) and not any(t.mutable for t in e.ty.args):
                e = boxed.rebox(a, e, p)
            return e
        if p != OBJECT and not boxed.reboxable(e.ty, p):
            return e  # refused by the caller: another type
        if any(t.mutable for t in e.ty.args) or pname not in self.scope.module.readonly.get(callee, ()):
            raise CompileError(a, "BoxedArgument", f"{what} may change, keep or test the identity of its "
                               f"parameter {pname or ''} ({p.text}), and a {e.ty.text} passed to it is a copy")
        return boxed.box(a, e) if p == OBJECT else boxed.rebox(a, e, p)

    def function_call(self, node, name):
        sig = self.scope.signatures[name]
        if not node.keywords and len(node.args) == len(sig.params):
            args = self.typed_args(node, sig.params, f"{name}()", not sig.exported, name)
            self.passes_changed(name, sig, zip(sig.names, node.args, args))
            g = ir.fn("ast.GlobalVar")(name)
            return E(ir.fn("ast.PrimCall")(sig.ret.node, g, [a.node for a in args]), sig.ret)
        return self.bound_call(node, name, sig)

    def passes_changed(self, name, sig, passed):
        """A function that changes a container parameter in place may get only a fresh one or
        a parameter of ours that is copied back to our caller too (compiler.py)."""
        changed = self.scope.module.mutated.get(name, ())
        for pname, a, e in passed:
            if pname in changed and e.borrowed and not self.writes_back(a):
                raise CompileError(a, "BorrowedMutation", f"{name}() changes {pname!r}, which would be (part of) an "
                                   "argument native code holds a copy of")

    def bound_call(self, node, name, sig):
        """A call with keywords or defaults: arguments evaluated in the order written (into
        temporaries), bound to parameters as CPython binds them; missing ones take their
        (constant) defaults. What CPython would refuse with TypeError is refused here."""
        lets, args = self.bind_written(node, sig, f"{name}()", 0, not sig.exported, name)
        g = ir.fn("ast.GlobalVar")(name)
        return self.with_lets(node, lets, E(ir.fn("ast.PrimCall")(sig.ret.node, g, [a.node for a in args]), sig.ret))

    def with_lets(self, node, lets, result):
        if lets and result.ty == NONE:
            raise CompileError(node, "CallOrder", "keyword arguments out of parameter order in a call "
                               "returning None: write them in the order of the parameters")
        for t, e in reversed(lets):
            result = ir.let(t, e, result)
        return result

    def bind_written(self, node, sig, what, first, internal, name=None):
        """(temporaries, arguments in parameter order) of @p node's call of @p sig, from its
        parameter @p first on (1: a method's, after self); @p name: the module function called."""
        names, params = sig.names[first:], sig.params[first:]
        posonly = max(0, sig.posonly - first)
        if len(node.args) > sig.positional - first:
            raise CompileError(node, "CallSignature", f"{what} takes at most {sig.positional - first} positional "
                               "argument(s)")
        written = [(names[i], a) for i, a in enumerate(node.args)]
        for k in node.keywords:
            if k.arg not in names[posonly:]:
                raise CompileError(node, "CallKeywords", f"{what} has no keyword parameter {k.arg!r}")
            written.append((k.arg, k.value))
        bound = {}
        for pname, a in written:
            if pname in bound:
                raise CompileError(node, "CallSignature", f"{what} got multiple values for {pname!r}")
            p = params[names.index(pname)]
            e = self.argument(a, p, what, name, pname)
            if e.ty != p:
                raise CompileError(a, "CallSignature", f"{what}: argument of type {e.ty.text}, parameter is {p.text}")
            if internal:
                self.no_borrowed_store(a, e, f"passing it to {what}")
            bound[pname] = e
        if name is not None:
            self.passes_changed(name, sig, ((p, a, bound[p]) for p, a in written))
        lets = []
        in_order = [names.index(p) for p, _ in written] == sorted(names.index(p) for p, _ in written)
        for pname, _ in written:  # Python evaluates them as written; the call takes them in parameter order
            e = bound[pname]
            if not e.pure and not in_order:
                t = self.scope.temp("arg", e.ty)
                lets.append((t, e))
                bound[pname] = ir.E(t.node, t.ty, True, e.borrowed)
        args = []
        for pname, p in zip(names, params):
            if pname in bound:
                args.append(bound[pname])
            elif pname in sig.defaults:
                default = sig.defaults[pname]  # a method's is its literal node (classes.py)
                default = default.value if isinstance(default, ast.Constant) else default
                args.append(optional.coerce(self.visit(value_node(default, node), p), p))
            else:
                raise CompileError(node, "CallSignature", f"{what} missing required argument {pname!r}")
        return lets, args

    def construct(self, node, name):
        info = self.scope.module.classes[name]
        if node.keywords and len(info.init.names) == len(info.init.params):  # Item(name="x", count=2)
            lets, args = self.bind_written(node, info.init, f"{name}()", 1, True)
            return self.with_lets(node, lets, E(ir.fn("ast.ClassNew")(info.ty.node, [a.node for a in args]), info.ty))
        args = self.method_args(node, info.init, f"{name}()")
        return E(ir.fn("ast.ClassNew")(info.ty.node, [a.node for a in args]), info.ty)

    # ---- methods ----------------------------------------------------------------
    def method_call(self, node, expected):
        recv_node, method = node.func.value, node.func.attr
        classes = self.scope.module.classes
        if isinstance(recv_node, ast.Name) and recv_node.id in classes and self.scope.module_name(recv_node.id) and \
                classmembers.find(classes[recv_node.id], "statics", method)[0] is not None:
            return self.static_call(node, classes[recv_node.id], method, None)
        owner = inheritance.unbound_owner(node, self.scope.module.classes, self.current_class())
        if owner is not None:
            return self.unbound_call(node, owner, method)
        if isinstance(recv_node, ast.Name) and recv_node.id in self.scope.pending:
            self.pin_by_method(node, recv_node.id, method)
        obj = self.value(recv_node)
        if obj.ty.kind == "class":
            return self.class_method(node, obj, method)
        if obj.ty == OBJECT:
            self.keywords(node, ())
            return boxed.method(self.scope, node, obj, method, [self.value(a) for a in node.args])
        kind = obj.ty.kind
        if obj.ty == FLOAT and method == "is_integer" and not node.args and not node.keywords:
            return ir.call_op("float_is_integer", [obj], BOOL)
        if kind == "tuple" and method in ("count", "index") and len(node.args) == 1 and not node.keywords:
            return (tuple_count if method == "count" else tuple_index)(self.scope, node, obj, self.value(node.args[0]))
        if kind not in MUTATORS:
            raise CompileError(node, "Method", f"method {method!r} of {obj.ty.text}")
        if method in _VIEWS and kind == "dict":
            raise CompileError(node, "DictView", f"dict.{method}() is supported as an iterable (for, list(), "
                               "sorted(), comprehensions) only")
        if method in MUTATORS[kind] and obj.borrowed and not self.writes_back(recv_node):
            raise CompileError(node, "BorrowedMutation", f"{kind}.{method}() would change an argument; native "
                               "code works on a copy of it, so the caller would not see the change")
        if kind in ("list", "vtuple") and method in ("index", "count", "remove"):
            obj.ty.elem.refuse_eq_by_fields(node, f"{kind}.{method}() on {obj.ty.text}")
        if kind == "str":
            kw, (arg_nodes, types) = {}, strmethods.arguments(node, method)
        else:
            kw = self.keywords(node, ("reverse",) if (kind, method) == ("list", "sort") else ())
            arg_nodes, types = node.args, self.method_arg_types(obj.ty, method, len(node.args))
        args = [self.as_list(a) if isinstance(a, ast.GeneratorExp) and (kind, method) == ("str", "join")
                else self.value(a, t) for a, t in zip(arg_nodes, types)]
        if (kind, method) == ("str", "join") and args[0].ty.kind == "vtuple":  # ", ".join(t): its items as a list
            args[0] = ir.call_op("list_copy", args, list_of(STR))
        if method in _STORING:
            for a, e in zip(node.args, args):
                if method in ("extend", "update"):  # what is kept are its elements
                    e = E(e.node, e.ty, e.pure, fresh_borrowed(e.borrowed, e.ty))
                self.no_borrowed_store(a, e, f"{kind}.{method}()")
        if (kind, method) == ("list", "sort"):
            args.append(self.truth(node, self.value(kw["reverse"])) if "reverse" in kw else ir.const_bool(False))
        if (kind, method) == ("dict", "get") and len(args) == 1:
            return optional.dict_get(self.scope, obj, args[0])
        try:
            call = ir.fn("ast.ContainerMethodCall")(obj.node, method, [a.node for a in args])
        except (TypeError, ValueError) as e:
            raise CompileError(node, "Method", str(e).split("(): ", 1)[-1]) from None
        ty = from_node(ir.fn("runtime.NodeGetAttr")(call, "checked_type"), self.class_types())
        borrowed = obj.borrowed if method != "copy" and method not in SET_ALGEBRA.values() \
            else fresh_borrowed(obj.borrowed, ty)
        return E(call, ty, borrowed=borrowed)

    def method_arg_types(self, recv, method, n):
        """Expected argument types (so [] / {} arguments get a type)."""
        k = recv.kind
        if k in ("list", "vtuple"):
            e = recv.elem
            return {"append": [e], "insert": [INT, e], "extend": [recv], "index": [e], "count": [e],
                    "remove": [e], "pop": [INT]}.get(method, [e] * n if "." in method else [None] * n)
        if k == "dict":
            return [recv.args[0], recv.args[1]] if method in ("get", "pop", "setdefault") else [recv] * n
        if k == "set":
            if method in SET_ALGEBRA.values() or method.endswith("_update"):
                return [recv] * n
            return [None] * n if method == "update" else [recv.elem] * n
        return [None] * n  # a str's: strmethods.arguments

    def pin_by_method(self, node, name, method):
        """The first use of an empty literal that says its element types."""
        kind = self.scope.pending[name].name
        args = [self.value(a) for a in node.args]
        ty = None
        if kind == "list" and method == "append" and len(args) == 1:
            ty = list_of(args[0].ty)
        elif kind == "list" and method in LIST_STORING and len(args) == 1:  # heapq.heappush(h, x)
            ty = list_of(args[0].ty)
        elif kind == "list" and method == "insert" and len(args) == 2:
            ty = list_of(args[1].ty)
        elif kind == "list" and method == "extend" and len(args) == 1 and args[0].ty.kind == "list":
            ty = args[0].ty
        elif kind == "set" and method == "add" and len(args) == 1:
            ty = set_of(args[0].ty)
        elif kind == "dict" and method in ("get", "setdefault") and len(args) == 2:
            ty = dict_of(args[0].ty, args[1].ty)
        if ty is None:
            raise CompileError(node, "EmptyLiteral", f"{name}.{method}() does not tell the element types of "
                               f"{name!r}; annotate it")
        self.scope.knowledge.pin(name, ty)

    def class_method(self, node, obj, method):
        info = self.scope.module.classes[obj.ty.name]
        owner, sig = inheritance.resolve(info, method)
        if sig is None and classmembers.find(info, "statics", method)[0] is not None:
            return self.static_call(node, info, method, obj)
        if sig is None or method == "__init__" or classmembers.find(info, "properties", method)[0] is not None:
            raise CompileError(node, "UnknownMethod", f"{obj.ty.name} has no method {method!r}")
        is_self = isinstance(node.func.value, ast.Name) and node.func.value.id == "self" and \
            self.current_class() is not None
        if self.scope.init_of is not None and is_self:
            if self.scope.module.classes[self.scope.init_of].subclasses:
                raise CompileError(node, "SelfInInit", f"{self.scope.init_of} has subclasses: a method called "
                                   "on self in its __init__ could read fields a subclass has not set yet")
            self.require_all_fields(node)
        what = f"{obj.ty.name}.{method}()"
        if node.keywords and obj.pure and not info.subclasses and len(sig.names) == len(sig.params):
            # cart.add("x", quantity=2): the receiver is a variable, so evaluating the arguments first
            # keeps Python's order; no subclass may bind the keywords to another method's parameters.
            lets, args = self.bind_written(node, sig, what, 1, True)
            return self.with_lets(node, lets, self.scope.module.method_calls.call(obj, method, args, node, is_self))
        args = self.method_args(node, sig, what)
        return self.scope.module.method_calls.call(obj, method, args, node, is_self)

    def method_args(self, node, sig, what):
        """Positional arguments after self, then the defaults of the parameters not given."""
        given = len(node.args)
        missing = sig.names[1 + given:] if len(sig.names) == len(sig.params) else []
        if given < len(sig.params) - 1 and all(m in sig.defaults for m in missing):
            filled = ast.Call(node.func, node.args + [ast.copy_location(ast.Constant(sig.defaults[m].value), node)
                                                      for m in missing], node.keywords)
            node = ast.copy_location(filled, node)
        return self.typed_args(node, sig.params[1:], what, True)

    def static_call(self, node, info, method, obj):
        """C.m(...) / obj.m(...) of a @staticmethod or @classmethod: obj (if any) is evaluated
        first, and CPython's AttributeError when it is None comes from CPython."""
        owner, sig = classmembers.find(info, "statics", method)
        if obj is not None:
            classmembers.refuse_subclass_override(node, info, "statics", method)
        args = self.method_args(node, sig, f"{info.name}.{method}()")
        call = self.scope.module.method_calls.direct(owner, method, sig, inheritance.none_of(owner.ty), args)
        if obj is None:
            return call
        return ir.let(self.scope.temp("recv", obj.ty), inheritance.not_none(obj), call)

    def current_class(self):
        """The class whose method is being lowered, or None."""
        return self.scope.name.split(".")[0] if "." in self.scope.name else None

    def unbound_call(self, node, owner, method):
        """`Base.m(self, ...)` / `super().m(...)`: the method CPython finds from that class on,
        called directly on self. After a base's __init__, its fields are set."""
        explicit = not isinstance(node.func.value, ast.Call)  # Base.m(self, ...), not super().m(...)
        if explicit and not (node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "self"):
            raise CompileError(node, "UnboundMethod", f"{ast.unparse(node.func)}() needs self first")
        sig = owner.init if method == "__init__" else owner.methods[method]
        if method != "__init__" and self.scope.init_of is not None:
            self.require_all_fields(node)
        call = ast.Call(node.func, node.args[1:] if explicit else node.args, node.keywords)
        args = self.method_args(ast.copy_location(call, node), sig, f"{owner.name}.{method}()")
        this = inheritance.cast(self.scope.read("self"), owner.ty)
        result = self.scope.module.method_calls.direct(owner, method, sig, this, args)
        if method == "__init__" and self.scope.init_of is not None:
            self.flow.assigned.update("self." + f for f in owner.fields)
        return result

    def require_all_fields(self, node):
        """In __init__, the instance may be used as a whole only once every field is set."""
        info = self.scope.module.classes[self.scope.init_of]
        for f in info.fields:
            if "self." + f not in self.flow.assigned:
                raise CompileError(node, "SelfInInit", f"self is used before field {f!r} is set")

    def class_types(self):
        return {n: c.ty for n, c in self.scope.module.classes.items()}

    # ---- built-in functions ----------------------------------------------------
    def builtin(self, node, name, expected):
        kw = self.keywords(node, ("reverse", "key") if name == "sorted" else ("key",) if name in ("min", "max")
                           else ())
        n = len(node.args)
        if name == "sorted" and "key" in kw and n == 1:
            return self.sorted_by_key(node, node.args[0], kw["key"], kw.get("reverse"))
        if name in ("min", "max") and "key" in kw:
            if n != 1:
                raise CompileError(node, "CallKeywords", f"{name}() with key= of one iterable only")
            return self.extreme_by_key(node, name, node.args[0], kw["key"])
        if name in ("sum", "min", "max", "sorted", "list", "set", "any", "all", "tuple") and n >= 1 and \
                isinstance(node.args[0], ast.GeneratorExp):
            return self.over_generator(node, name, kw)
        if name == "sum" and n in (1, 2) and not self.is_iteration_call(node.args[0]) and \
                self.value(node.args[0]).ty.kind in ("set", "tuple"):
            # sum(s) of a set or a tuple: its items in CPython's iteration order, as sum(x for x in s).
            items = ast.GeneratorExp(ast.Name("<item>", ast.Load()),
                                     [ast.comprehension(ast.Name("<item>", ast.Store()), node.args[0], [], 0)])
            return self.over_generator(ast.copy_location(ast.Call(node.func, [items] + node.args[1:], []), node),
                                       name, kw)
        if name in ("list", "set", "dict") and n == 0:
            return self.empty(node, name, expected)
        if name in ("list", "sorted", "set", "tuple") and n == 1:
            return self.from_iterable(node, name, kw)
        if name in ("any", "all") and n == 1:
            return self.any_all(node, name, node.args[0], None)
        if name == "str" and n == 1:  # str(None) is "None"
            e = self.value(node.args[0], keep_optional=True)
            if e.ty.kind == "optional" and e.ty.args[0] in (INT, BOOL, STR):
                return optional.text(self.scope, e, lambda x: self.builtin_values(node, "str", [x]))
        args = [self.value(a) for a in node.args]
        return self.builtin_values(node, name, args)

    def builtin_values(self, node, name, args):
        on_object = boxed.builtin(node, name, args)
        if on_object is not None:
            return on_object
        n = len(args)
        tys = [a.ty for a in args]
        if name == "len" and n == 1 and tys[0].kind in ("str", "list", "dict", "set", "tuple", "vtuple"):
            return ir.call_op("len", args, INT)
        if name in ("len", "str") and n == 1 and tys[0].kind == "class":  # __len__, __str__ (protocols.py)
            return protocols.length(self, node, args[0]) if name == "len" else protocols.text(self, node, args[0], "s")
        if name == "str" and n == 1 and tys[0] in (INT, BOOL, STR, FLOAT):
            return formatting.formatted(node, args[0], "")
        if n == 0 and name in _EMPTY_VALUES:  # int(), float(), str(), bool(): 0, 0.0, '', False
            return _EMPTY_VALUES[name]()
        if name == "int" and n == 1 and (tys[0].scalar or tys[0] == STR):
            return args[0] if tys[0] == INT else ir.call_op("int", args, INT)
        if name == "int" and n == 2 and tys[0] == STR and tys[1] in (INT, BOOL):  # int(text, base)
            return ir.call_op("int", args, INT)
        if name == "float" and n == 1 and tys[0].scalar:
            return args[0] if tys[0] == FLOAT else ir.call_op("float", args, FLOAT)
        if name == "bool" and n == 1:
            return self.truth(node, args[0])
        if name == "abs" and n == 1 and tys[0].scalar:
            return ir.call_op("abs", args, FLOAT if tys[0] == FLOAT else INT)
        if name in ("min", "max") and n >= 2 and len(set(tys)) == 1 and (tys[0].scalar or tys[0] == STR):
            result = args[0]
            for a in args[1:]:  # min(a, b, c) == min(min(a, b), c), first of equals kept
                result = ir.call_op(name, [result, a], tys[0])
            return result
        if name in ("min", "max") and n == 1 and tys[0].kind in ("list", "vtuple") and \
                (tys[0].elem.scalar or tys[0].elem == STR):
            return ir.call_op(name, args, tys[0].elem)
        if name == "sum" and n in (1, 2) and tys[0].kind in ("list", "vtuple"):
            return self.sum(node, args)
        if name == "ord" and n == 1 and tys[0] == STR:
            return ir.call_op("ord", args, INT)
        if name == "chr" and n == 1 and tys[0] in (INT, BOOL):
            return ir.call_op("chr", [self.as_int(args[0])], STR)
        raise CompileError(node, "Builtin", f"{name}() of ({', '.join(t.text for t in tys)})")

    def sum(self, node, args):
        elem = args[0].ty.elem
        if elem == INT and (len(args) == 1 or args[1].ty == INT):
            return ir.call_op("sum", args, INT)
        if elem == FLOAT and len(args) == 2 and args[1].ty == FLOAT:
            return ir.call_op("sum", args, FLOAT)
        if elem == FLOAT and len(args) == 1:
            return float_sum(self, node, args[0])
        raise CompileError(node, "Builtin", "sum() of list[int] (optional int start) or of list[float] with a "
                           "float start (sum([]) is the int 0, so the result type would depend on the data)")

    def sorted_list(self, node, lst, kw):
        reverse = self.truth(node, self.value(kw["reverse"])) if "reverse" in kw else ir.const_bool(False)
        if not lst.ty.elem.ordered:
            raise CompileError(node, "Sorted", f"sorting {lst.ty.text}: elements are not ordered")
        if not lst.ty.elem.scalar and lst.ty.elem.has_float:
            raise CompileError(node, "FloatContainerCompare", "sorting containers of floats (CPython compares "
                               "their elements by identity first)")
        return ir.call_op("sorted", [lst, reverse], list_of(lst.ty.elem),
                          borrowed=fresh_borrowed(lst.borrowed, lst.ty))

    def from_iterable(self, node, name, kw):
        """list(x), set(x), sorted(x): of a container directly, of anything else through a comprehension."""
        src = node.args[0]
        direct = None
        if not self.is_iteration_call(src):
            direct = self.value(src)
        if direct is not None and direct.ty.kind == "str":
            direct = ir.call_op("str_chars", [direct], list_of(STR))
        if direct is not None and direct.ty.kind == "set" and name == "sorted":
            return self.sorted_set(node, direct, kw)
        if direct is not None and direct.ty.kind == "set" and name == "set":  # set_merge, as CPython's set(s)
            return E(ir.fn("ast.ContainerMethodCall")(direct.node, "copy", []), direct.ty)
        if direct is not None and direct.ty.kind in ("list", "vtuple"):
            if name in ("list", "tuple"):  # a copy: a tuple never shares a list's storage, which may change
                ty = (list_of if name == "list" else vtuple_of)(direct.ty.elem)
                return ir.call_op(name + "_copy", [direct], ty, borrowed=fresh_borrowed(direct.borrowed, direct.ty))
            if name == "sorted":
                return self.sorted_list(node, direct, kw)
            return self.to_set(node, direct)
        lst = self.collect(node, src)
        if name == "list":
            return lst
        if name == "tuple":
            return ir.call_op("tuple_copy", [lst], vtuple_of(lst.ty.elem), borrowed=lst.borrowed)
        if name == "set" and direct is not None and direct.ty.kind == "dict":
            # CPython sizes the table for the dict first, then adds its keys (set_update_internal).
            self.to_set(node, lst)  # the member check
            return ir.call_op("set_from_keys", [lst], set_of(lst.ty.elem))
        return self.sorted_list(node, lst, kw) if name == "sorted" else self.to_set(node, lst)

    def sorted_set(self, node, s, kw):
        reverse = self.truth(node, self.value(kw["reverse"])) if "reverse" in kw else ir.const_bool(False)
        return ir.call_op("sorted", [s, reverse], list_of(s.ty.elem))

    def to_set(self, node, lst):
        if not lst.ty.elem.set_member:
            raise CompileError(node, "KeyType", f"{lst.ty.elem.text} cannot be a set member natively")
        return ir.call_op("set_from_list", [lst], set_of(lst.ty.elem))

    def is_iteration_call(self, node):
        """enumerate(...)/zip(...)/range(...)/d.keys()/values()/items(): iterables, not values."""
        if not isinstance(node, ast.Call):
            return False
        f = node.func
        if isinstance(f, ast.Name):
            return f.id in ITERATION_ONLY and not self.scope.is_local(f.id)
        return isinstance(f, ast.Attribute) and f.attr in _VIEWS and not node.args
