"""Module-level names a compiled function may use besides the module's own
functions and classes: `typing` names in annotations, the `math` module and
its names, and constants of immutable types (int, float, bool, str and
tuples of them) bound once at module level.

The guest hands them over in the unit's source (the import statements and
the constants' assignments, each bound once in the whole program and before
the function's `def`: guest/hot.py checks that), so the frontend resolves
each name from the text it compiles, never from a guess. Constant values
are folded here, without running the program: only literals, earlier
constants and operators on them, within bounds (an int beyond int64 or a
long string is refused; the function then stays Python)."""
import ast
import copy
import math
import operator

from .errors import CompileError

# typing name -> the builtin container annotation it means natively. The
# read-only protocols are lists/dicts/sets natively: an argument of another
# kind (a tuple for a Sequence) is not representable and runs in CPython.
TYPING_CONTAINERS = {
    "List": "list", "Dict": "dict", "Set": "set", "Tuple": "tuple", "FrozenSet": None,
    "Sequence": "list", "MutableSequence": "list", "Iterable": "list", "Collection": "list",
    "Mapping": "dict", "MutableMapping": "dict", "AbstractSet": "set", "MutableSet": "set",
    "Optional": "Optional", "Union": "Union",  # None or one type: typerules / optional.py
    "Any": "Any",  # a boxed value (boxed.py)
}
# The math names native code computes (math_ops in guest/native/mathcalls.py); constants are folded.
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}

# Modules whose functions work on a list natively (guest/native/listmodules.py).
LIST_MODULES = ("heapq", "bisect")

_INT64 = (-(2 ** 63), 2 ** 63 - 1)
_MAX_TEXT = 4096
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert, ast.Not: operator.not_}


class ModuleNames:
    """What each module-level name of a unit means."""

    def __init__(self):
        self.typing = {}          # local name -> typing name (`from typing import List as L`: L -> List)
        self.typing_modules = set()
        self.math_modules = set()
        self.math = {}            # local name -> math name (`from math import sqrt`)
        self.constants = {}       # name -> folded value
        self.instances = {}       # name -> class name of a module-level instance (`area = WorkArea()`)
        self.list_modules = {}    # local name -> heapq or bisect (`import heapq`)
        self.list_functions = {}  # local name -> (module, name) (`from heapq import heappush`)
        self.dataclass_functions = {}  # local name -> dataclasses name (`from dataclasses import dataclass`)
        self.dataclass_modules = set()  # `import dataclasses` (dataclassdefs.py)
        self.collections_functions = {}  # local name -> collections name (`from collections import defaultdict`)
        self.collections_modules = set()  # `import collections` (defaultdicts.py)

    def take(self, node):
        """Record a top-level import or constant; False if @p node is neither."""
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in ("typing", "math", "__future__"):
            for alias in node.names:
                local = alias.asname or alias.name
                if node.module == "typing":
                    self.typing[local] = alias.name
                elif node.module == "math":
                    self.math[local] = alias.name
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in LIST_MODULES:
            for alias in node.names:
                self.list_functions[alias.asname or alias.name] = (node.module, alias.name)
            return True
        for module, functions, modules in (("dataclasses", self.dataclass_functions, self.dataclass_modules),
                                           ("collections", self.collections_functions, self.collections_modules)):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == module:
                functions.update((alias.asname or alias.name, alias.name) for alias in node.names)
                return True
            if isinstance(node, ast.Import) and all(a.name == module for a in node.names):
                modules.update(a.asname or a.name for a in node.names)
                return True
        if isinstance(node, ast.Import) and all(a.name in ("typing", "math") + tuple(LIST_MODULES) for a in node.names):
            for alias in node.names:
                local = alias.asname or alias.name
                if alias.name in LIST_MODULES:
                    self.list_modules[local] = alias.name
                else:
                    (self.typing_modules if alias.name == "typing" else self.math_modules).add(local)
            return True
        target, value = constant_binding(node)
        if target is None:
            return False
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args and \
                not value.keywords and value.func.id not in _FOLDED_CALLS:
            # `area = WorkArea()`: an instance if WorkArea is a class of the unit (inheritance.py).
            self.instances[target] = value.func.id
            return True
        self.constants[target] = self.fold(value)
        return True

    # ---- annotations --------------------------------------------------------
    def typing_name(self, node):
        """The typing name @p node spells (`List`, `typing.List`), or None."""
        if isinstance(node, ast.Name):
            return self.typing.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in self.typing_modules:
            return node.attr
        return None

    def annotation(self, node):
        """@p node with typing names spelled as the builtins they mean natively."""
        if node is None:
            return None
        return _Respell(self).visit(ast.fix_missing_locations(_copy(node)))

    # ---- values -------------------------------------------------------------
    def math_name(self, node):
        """The math name @p node spells (`sqrt` imported, `math.sqrt`), or None."""
        if isinstance(node, ast.Name):
            return self.math.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.math_modules:
            return node.attr
        return None

    def list_function(self, node):
        """(module, name) of a heapq or bisect function @p node spells (`heapq.heappush`, `heappush`), or None."""
        if isinstance(node, ast.Name):
            return self.list_functions.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.list_modules:
            return self.list_modules[node.value.id], node.attr
        return None

    def fold(self, node):
        """The value of a constant expression (see the module docstring)."""
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool, str):
            return _check(node, node.value)
        if isinstance(node, ast.Name) and node.id in self.constants:
            return self.constants[node.id]
        if isinstance(node, ast.Tuple):
            return tuple(self.fold(e) for e in node.elts)
        if self.math_name(node) in MATH_CONSTANTS:
            return MATH_CONSTANTS[self.math_name(node)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FOLDED_CALLS and \
                not node.keywords and node.func.id not in self.constants:
            args = [self.fold(a) for a in node.args]
            if all(type(a) is int for a in args) or node.func.id == "ord":
                return _check(node, _apply(node, _FOLDED_CALLS[node.func.id], *args))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _check(node, _apply(node, _UNARY[type(node.op)], self.fold(node.operand)))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.fold(node.left), self.fold(node.right)
            _bounded(node, node.op, a, b)
            return _check(node, _apply(node, _BINOPS[type(node.op)], a, b))
        raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r} is not a constant of int, float, bool, "
                           "str or tuples of them")


def constant_binding(node):
    """(name, value node) if @p node is `NAME = value` or `NAME: T = value` with one plain target."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id, node.value
    return None, None


# Built-in calls a constant may make (`A = ord("A")`, `SLOTS = range(4)`: a range is iterated only).
_FOLDED_CALLS = {"ord": ord, "range": range}


def _copy(node):
    return copy.deepcopy(node)


class _Respell(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def respell(self, node):
        typing_name = self.names.typing_name(node)
        if typing_name is None:
            return None
        if typing_name in ("Final", "ClassVar"):  # a constant (inheritance.py, classmembers.py read them)
            return ast.copy_location(ast.Name(typing_name, ast.Load()), node)
        builtin = TYPING_CONTAINERS.get(typing_name)
        if builtin is None:
            raise CompileError(node, "Annotation", f"typing.{typing_name} has no native type")
        return ast.copy_location(ast.Name(builtin, ast.Load()), node)

    def visit_Name(self, node):
        return self.respell(node) or node

    def visit_Attribute(self, node):
        return self.respell(node) or self.generic_visit(node)


def _apply(node, op, *args):
    try:
        return op(*args)
    except (ArithmeticError, TypeError, ValueError) as e:
        raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r}: {e}") from None


def _bounded(node, op, a, b):
    """Refuse what could take long or much memory to fold (the value would be refused anyway)."""
    too_big = False
    if isinstance(op, ast.Mod) and isinstance(a, str):
        # printf-style formatting: "%0999999999d" % 1 would build a gigabyte in the compiler.
        raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r}: str formatting in a constant")
    if isinstance(op, ast.Pow) and isinstance(a, int) and isinstance(b, int):
        too_big = b > 64 and abs(a) > 1
    elif isinstance(op, ast.LShift) and isinstance(b, int):
        too_big = b > 64
    elif isinstance(op, ast.Mult) and (isinstance(a, (str, tuple)) or isinstance(b, (str, tuple))):
        seq, n = (a, b) if isinstance(a, (str, tuple)) else (b, a)
        too_big = isinstance(n, int) and len(seq) * n > _MAX_TEXT
    if too_big:
        raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r} is too large for native code")


def _check(node, v):
    if isinstance(v, bool) or isinstance(v, float):
        return v
    if isinstance(v, int):
        if not _INT64[0] <= v <= _INT64[1]:
            raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r} does not fit int64")
        return v
    if isinstance(v, str):
        if len(v) > _MAX_TEXT:
            raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r} is too long for native code")
        return v
    if isinstance(v, range) and len(v) <= 1 << 40:
        return v
    if isinstance(v, tuple) and len(v) <= 64:
        for item in v:
            _check(node, item)
        return v
    raise CompileError(node, "ModuleConstant", f"{ast.unparse(node)!r} is not a constant of int, float, bool, "
                       "str or tuples of them")


def value_node(v, where):
    """An AST literal for a folded value (the frontend lowers it as if written in place)."""
    if isinstance(v, tuple):
        return ast.copy_location(ast.Tuple([value_node(x, where) for x in v], ast.Load()), where)
    if isinstance(v, range):
        return ast.copy_location(ast.Call(ast.Name("range", ast.Load()), [value_node(x, where) for x in
                                                                          (v.start, v.stop, v.step)], []), where)
    return ast.copy_location(ast.Constant(v), where)
