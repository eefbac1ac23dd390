"""Symbols of one function (Python scoping: one namespace per function) and
the flow state used for definite assignment: a read of a name that is not
assigned on every path to it is rejected, because CPython would raise
UnboundLocalError there and the native version must not read garbage."""
from .errors import CompileError
from .irbuilder import var


class FunctionScope:
    """Name -> typed PrimVar for parameters, locals and frontend temporaries."""

    def __init__(self, name, signatures):
        self.name = name
        self.signatures = signatures  # every function of the module: name -> (param dtypes, return dtype)
        self.symbols = {}
        self.hoisted = []  # locals first assigned inside a nested block: declared at the top
        self.temp_count = 0

    def define(self, name, dtype):
        e = var(name, dtype)
        self.symbols[name] = e
        return e

    def temp(self, hint, dtype):
        """A fresh variable the source cannot name (its name contains a dot)."""
        self.temp_count += 1
        return var(f"{hint}.{self.temp_count}", dtype)

    def lookup(self, name):
        return self.symbols.get(name)


class Flow:
    """What is known at one program point: the definitely assigned names, and
    whether the point is reachable at all (after return/break/continue it is not)."""

    def __init__(self, assigned, reachable=True):
        self.assigned = set(assigned)
        self.reachable = reachable

    def copy(self):
        return Flow(self.assigned, self.reachable)

    @staticmethod
    def join(a, b):
        """The state after two branches meet."""
        if not a.reachable:
            return b.copy()
        if not b.reachable:
            return a.copy()
        return Flow(a.assigned & b.assigned)

    def require(self, node, name):
        if self.reachable and name not in self.assigned:
            raise CompileError(node, "UnboundName",
                               f"name {name!r} may be used before it is assigned")
