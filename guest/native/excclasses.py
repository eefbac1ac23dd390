"""The exception classes a program defines as validation code does
(`class ValidationError(ValueError): pass`, or a docstring, class constants
and an `__init__` that hands its base some arguments and keeps the others
as attributes): raised natively with one str argument, or called with ints,
floats, bools and strs where the base follows BaseException's rules for
them or an __init__ takes them (exceptions.py), and matched by `except` clauses along the
class hierarchy. Each gets its own fault kind (codegen/core.h
kFirstClassFault and up) so an except clause's bit mask takes it exactly
where CPython's isinstance test would; out of the module it crosses as
SPINE_FAULT_CLASS with its name, and the loader raises the program's own
class (loader.py)."""
import ast
import builtins

from .errors import CompileError

FIRST_KIND = 16  # codegen/core.h kFirstClassFault
LAST_KIND = 62   # the highest bit of an int64 mask


class ExceptionClass:
    """A program's exception class: its name, its base (a program class, or None), its builtin
    root class, its fault kind, and whether str() of an instance is its one argument."""

    def __init__(self, name, parent, root, kind, str_is_message, arity=None):
        self.name, self.parent, self.root, self.kind = name, parent, root, kind
        # The number of arguments its __init__ (or a base's of the program) takes; None without one,
        # when its args are the arguments it is called with.
        self.arity = arity
        # (where the arguments are its args: str() of one made by __init__ is CPython's, exceptions.py)
        self.str_is_message = str_is_message
        # Raised natively with other arguments than one str (codegen/raised.h) where its args,
        # str() and repr() follow BaseException's rules for them, or its __init__ makes them
        # (the loader calls it with the same arguments).
        self.called = arity is not None or _called_as_base(root)

    def is_subclass_of(self, name):
        """Is this class (or one of its program bases) @p name, or is its builtin root a
        subclass of the builtin exception class @p name?"""
        cls = self
        while cls is not None:
            if cls.name == name:
                return True
            cls = cls.parent
        builtin = getattr(builtins, name, None)
        return isinstance(builtin, type) and issubclass(self.root, builtin)


def builtin_exception(name):
    """The builtin exception class @p name, or None."""
    cls = getattr(builtins, name, None)
    return cls if isinstance(cls, type) and issubclass(cls, BaseException) else None


def _plain_statement(s):
    """A docstring, `pass`, `...` or a class constant: nothing that changes the base's behaviour (a
    constant names no attribute exceptions have, so args and str() stay theirs)."""
    if isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and
                                   (isinstance(s.value.value, str) or s.value.value is Ellipsis)):
        return True
    target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else \
        s.target if isinstance(s, ast.AnnAssign) and s.simple else None
    return isinstance(target, ast.Name) and isinstance(s.value, ast.Constant) and _own_attribute(target.id)


def _own_attribute(name):
    """May a class of exceptions define @p name without changing what an exception is?"""
    return not name.startswith("__") and not hasattr(BaseException, name)


def _init_arity(init):
    """The number of arguments __init__ @p init takes if all it does is hand some of its
    parameters (or constants) to its base's (`super().__init__(message)`) and keep others as
    attributes (`self.status = status`): nothing there can fail or differ from CPython's
    construction, which the loader runs. None for any other __init__."""
    a = init.args
    params = [p.arg for p in a.args]
    if init.decorator_list or a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or \
            not params or params[0] != "self":
        return None

    def value(v):
        return isinstance(v, ast.Constant) or (isinstance(v, ast.Name) and v.id in params[1:])
    supers = 0
    for s in init.body:
        call = s.value if isinstance(s, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__" and \
                isinstance(call.func.value, ast.Call) and isinstance(call.func.value.func, ast.Name) and \
                call.func.value.func.id == "super" and not call.func.value.args and not call.func.value.keywords \
                and not call.keywords and all(value(v) for v in call.args):
            supers += 1
            continue
        target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else None
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self" \
                and _own_attribute(target.attr) and value(s.value):
            continue
        if not _plain_statement(s) or isinstance(s, (ast.Assign, ast.AnnAssign)):
            return None
    return len(params) - 1 if supers == 1 else None


def _body_arity(node, inherited):
    """(is the body of class @p node one of an exception class, the arity of its __init__ or
    @p inherited, its base's)."""
    inits = [s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"]
    if not all(_plain_statement(s) or s in inits for s in node.body) or len(inits) > 1:
        return False, None
    if not inits:
        return True, inherited
    arity = _init_arity(inits[0])
    return arity is not None, arity


def _one_argument(root):
    """How a subclass of @p root with a plain body takes one str argument: None if its args
    are not that one argument (UnicodeDecodeError needs five), else whether its str() is the
    argument itself (KeyError's is its repr)."""
    probe = type("Probe", (root,), {})
    try:
        e = probe("message")
    except Exception:  # noqa: BLE001 - a base that does not take one argument
        return None
    return str(e) == "message" if e.args == ("message",) else None


def _called_as_base(root):
    """Do a subclass of @p root's args, str() and repr() follow BaseException's rules for no
    argument, one int and several (OSError's several are an errno and a text)?"""
    probe = type("Probe", (root,), {})
    try:
        cases = [(args, probe(*args)) for args in [(), (5,), ("bad", 2, 1.5)]]
    except Exception:  # noqa: BLE001 - a base that does not take them
        return False
    return all(e.args == args and str(e) == (str(args[0]) if len(args) == 1 else str(args) if args else "") and
               repr(e) == "Probe" + (f"({args[0]!r})" if len(args) == 1 else repr(args)) for args, e in cases)


def split_exception_classes(cdefs, names=None):
    """(the other classes of @p cdefs, {name: ExceptionClass} of the exception classes among
    them): undecorated, with one base (a builtin exception, or one of them defined before), no
    keywords and a plain body (_body_arity). Other classes are left to classes.py."""
    found, others = {}, []
    constants = names.constants if names is not None else {}
    for node in cdefs:
        base = node.bases[0] if len(node.bases) == 1 else None
        base_name = base.id if isinstance(base, ast.Name) else None
        parent = found.get(base_name)
        root = parent.root if parent is not None else \
            (builtin_exception(base_name) if base_name and base_name not in constants else None)
        plain, arity = _body_arity(node, parent.arity if parent is not None else None)
        # A class shadowing a builtin exception's name would make `except` clauses ambiguous.
        if root is None or node.decorator_list or node.keywords or not plain or \
                builtin_exception(node.name) is not None:
            others.append(node)
            continue
        str_is_message = _one_argument(root)
        if str_is_message is None or node.name in found:
            others.append(node)
            continue
        kind = FIRST_KIND + len(found)
        if kind > LAST_KIND:
            raise CompileError(node, "ExceptionClasses", f"more than {LAST_KIND - FIRST_KIND + 1} exception "
                               "classes in one program")
        found[node.name] = ExceptionClass(node.name, parent, root, kind, str_is_message, arity)
    return others, found
