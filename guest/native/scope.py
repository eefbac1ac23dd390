"""Symbols of one function (Python scoping: one namespace per function,
plus the private scope of each comprehension) and the flow state used for
definite assignment: a read of a name that is not assigned on every path to
it is rejected, because CPython would raise UnboundLocalError there and the
native version must not read garbage."""
from . import boxed
from . import inheritance
from . import irbuilder as ir
from .errors import CompileError
from .typemodel import BOOL, FLOAT, INT, STR, dict_of, list_of, optional_of, set_of

# What a None-initialised local (`best = None`) may be while nothing has told its type yet:
# tried in turn when a stand-in makes lowering fail before the telling assignment.
OPTIONAL_GUESSES = (INT, STR, FLOAT, BOOL)


class Restart(Exception):
    """Lowering learned something (a variable's element type, a variable that
    may alias an argument) that earlier statements depend on: lower again."""


class Knowledge:
    """What lowering learned about a function so far; survives restarts."""

    def __init__(self, borrowed=()):
        self.borrowed = set(borrowed)  # names that may hold (part of) an argument's mutable object
        self.pinned = {}               # name first bound to an empty literal -> its full type
        self.guess = 0                 # which OPTIONAL_GUESSES stands in for an untyped `x = None`

    def borrow(self, name):
        if name not in self.borrowed:
            self.borrowed.add(name)
            raise Restart()

    def pin(self, name, ty):
        if name not in self.pinned:
            self.pinned[name] = ty
            raise Restart()


class FunctionScope:
    """Name -> typed PrimVar for parameters, locals and frontend temporaries."""

    def __init__(self, name, module, knowledge):
        self.name = name
        self.module = module            # signatures and classes of the whole module (compiler.ModuleInfo)
        self.signatures = module.functions
        self.knowledge = knowledge
        self.symbols = {}
        self.pending = {}               # name -> pending Ty of an empty literal not typed yet
        self.probed = {}                # pending name -> its first use that could not type it
        self.hoisted = []               # locals first assigned inside a nested block: declared at the top
        self.temp_count = 0
        self.comprehensions = []        # stack of {name: E} for comprehension variables
        self.init_of = None             # the class whose __init__ this is
        self.bound = set()              # names the function binds anywhere (never module constants)
        self.mentioned = set()          # names the function reads or binds anywhere, parameters included
        self.message_names = set()      # `except ... as n` names used only as str(n) inside their handlers
        self.handler_names = set()      # `except ... as n` names used only inside their handlers
        self.boxed = False              # the function has boxed values: `except` takes exception objects
        self.writable = set()           # list/dict/set parameters changed in place, copied back (compiler.py)
        self.parameters = set()         # the function's parameter names
        self.narrowed = {}              # name -> the subclass an enclosing `if isinstance(name, C):` proved

    def probe(self, name, node):
        """A use of an empty literal before anything told its element types
        (`while len(out) < n: out.append(...)`): go on with a stand-in type so
        that a later use can tell them; the pass is lowered again either way
        (compiler.py reports the first such use if nothing ever tells)."""
        self.probed.setdefault(name, node)
        guess = optional_of(OPTIONAL_GUESSES[self.knowledge.guess % len(OPTIONAL_GUESSES)])
        stand_in = {"list": list_of(INT), "set": set_of(INT), "optional": guess}.get(self.pending[name].name,
                                                                                      dict_of(INT, INT))
        self.define(name, stand_in)

    def define(self, name, ty):
        e = ir.var(name, ty)
        self.symbols[name] = e
        return e

    def temp(self, hint, ty):
        """A fresh variable the source cannot name (its name contains a dot)."""
        self.temp_count += 1
        return ir.var(f"{hint}.{self.temp_count}", ty)

    def lookup(self, name):
        for frame in reversed(self.comprehensions):
            if name in frame:
                return frame[name]
        return self.symbols.get(name)

    def is_local(self, name):
        return self.lookup(name) is not None or name in self.pending

    def module_name(self, name):
        """Is @p name the module's (a constant, a math name) here, not a local?"""
        return name not in self.bound and self.lookup(name) is None and name not in self.pending

    def read(self, name):
        """The variable as an expression, marked borrowed if it may alias an argument."""
        for frame in reversed(self.comprehensions):
            if name in frame:
                return frame[name]
        e = self.symbols[name]
        e = ir.E(e.node, e.ty, True, name in self.knowledge.borrowed)
        narrowed = self.narrowed.get(name)
        if narrowed is not None and e.ty.kind == "object":  # a boxed value proved an int, str ... (boxed.py)
            return boxed.unbox(e, narrowed)
        return inheritance.cast(e, narrowed) if narrowed is not None else e


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
