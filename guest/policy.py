"""Names the guest's analyses treat as reflective, unsafe or implicit: one list.

PLM (`plm.py`), prefix streaming (`prefix.py`) and hot functions (`hot.py`)
each decide, from a program's text alone, whether code can reach past what
the analysis sees: its own namespaces, frames, closures or arbitrary
attributes. They must agree on what that takes, so the names live here and
nowhere else; each module imports them.

- PLM leaves a whole program alone when it mentions one of them (the program
  could observe the generated names or rebind what the analysis relies on).
- Prefix streaming treats a program that mentions one as able to rebind
  anything after any opaque call, so it forgets every known value there.
- Hot functions that use one stay Python (besides the I/O names below).
"""

# Names through which a program reaches namespaces, frames, code objects or
# arbitrary attributes, or builds classes and frames of its own.
REFLECTIVE_NAMES = frozenset({
    "globals", "locals", "vars", "dir", "exec", "eval", "compile", "__import__",
    "__builtins__", "__build_class__", "getattr", "setattr", "delattr", "breakpoint",
    "help", "type", "super",
})

# Attribute prefixes that reach frames, generators' and coroutines' frames,
# tracebacks' frames, code objects and every dunder (`__dict__`,
# `__globals__`, `__closure__`, `__code__`, `__class__`, `__subclasses__`...).
REFLECTIVE_ATTR_PREFIXES = ("__", "f_", "gi_", "cr_", "ag_", "co_")
# Attributes outside those prefixes with the same reach.
REFLECTIVE_ATTRS = frozenset({"tb_frame", "tb_next", "_getframe", "_current_frames", "cell_contents",
                              "last_traceback"})
# Dunders that only describe (a name, a docstring) or lead to exceptions and
# tracebacks, whose frames are reached only through the attributes above.
DESCRIPTIVE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__traceback__", "__cause__",
                                 "__context__", "__notes__"})

# Builtins whose use is I/O or leaves the program (hot functions stay Python).
IO_NAMES = frozenset({"print", "open", "input", "exit", "quit", "memoryview"})

# Names that let user code run later without a visible call: lazy callbacks
# (`map(f, xs)` runs `f` whenever something iterates it), new classes and
# properties (their dunders run on operators, `len`, `str`, iteration...).
IMPLICIT_NAMES = frozenset({"type", "map", "filter", "iter", "__build_class__", "property",
                            "classmethod", "staticmethod"})

# Standard modules whose import neither exposes frames or namespaces nor
# creates lazy callbacks.
SAFE_MODULES = frozenset({
    "math", "json", "re", "statistics", "string", "textwrap", "datetime",
    "decimal", "fractions", "time", "random", "heapq", "bisect", "cmath",
})


def is_reflective_attr(attr):
    """Whether the attribute `attr` reaches frames, code, namespaces or dunders."""
    if attr in DESCRIPTIVE_DUNDERS:
        return False
    return attr.startswith(REFLECTIVE_ATTR_PREFIXES) or attr in REFLECTIVE_ATTRS
