"""The exception classes a program defines as validation code does
(`class ValidationError(ValueError): pass`, or a docstring for body): raised
natively with one str argument, and matched by `except` clauses along the
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

    def __init__(self, name, parent, root, kind, str_is_message):
        self.name, self.parent, self.root, self.kind = name, parent, root, kind
        self.str_is_message = str_is_message

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


def _plain_body(node):
    """A body of docstrings, `pass` and `...` only: the class adds no behaviour to its base."""
    return all(isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and
                                          (isinstance(s.value.value, str) or s.value.value is Ellipsis))
               for s in node.body)


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


def split_exception_classes(cdefs, names=None):
    """(the other classes of @p cdefs, {name: ExceptionClass} of the exception classes among
    them): undecorated, with one base (a builtin exception, or one of them defined before), no
    keywords and a plain body. Other classes are left to classes.py."""
    found, others = {}, []
    constants = names.constants if names is not None else {}
    for node in cdefs:
        base = node.bases[0] if len(node.bases) == 1 else None
        base_name = base.id if isinstance(base, ast.Name) else None
        parent = found.get(base_name)
        root = parent.root if parent is not None else \
            (builtin_exception(base_name) if base_name and base_name not in constants else None)
        # A class shadowing a builtin exception's name would make `except` clauses ambiguous.
        if root is None or node.decorator_list or node.keywords or not _plain_body(node) or \
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
        found[node.name] = ExceptionClass(node.name, parent, root, kind, str_is_message)
    return others, found
