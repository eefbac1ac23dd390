"""Hot functions: which module-level functions of a program may run
as native code, and the switch from the Python version to the compiled one.

The guest never compiles and never writes C++: it hands a function's source
to the host (the `native` crossing), which compiles it outside any sandboxed
child, and gets back the module the host compiled: its path in the cache (in
process), or, in a sandboxed child, which sees nothing of the cache, a
descriptor of a sealed copy sent with the answer, loaded as
/proc/self/fd/N. Modes:

- eager: every eligible function is compiled (or found in the cache) before
  the program runs; its `def` binds the native version at once.
- auto: a function's `def` binds a counting wrapper; once it has been called
  `hot` times the host compiles it in the background while the program goes
  on in Python. The wrapper polls the host at most every 2 ms (and only every
  64 calls), and switches the global binding to the native version when it
  is ready. A module already in the cache switches at the `def`.

Native results equal CPython's: calls the compiled code cannot represent
(int64 overflow, keywords, other argument types) run the Python function.

Some functions run natively only when native code calls them, so Python's
callers keep the Python version (status "python", the reason says why): a
class instance or a Callable parameter in the signature (nothing Python
holds can cross; a returned closure does, native/crossing.py), and containers of boxed values in the signature (a bare
`list`/`dict`/`tuple`, `List[Any]`, `Dict[str, Any]`, ...). Such an argument
is read entry by entry into boxes and every operation on one is an indirect
call into CPython's abstract API, so called from Python the function runs
slower than CPython itself (0.04-0.8x); a typed caller's unit still compiles
it and calls it natively, without a Python crossing. A single boxed value
(`Any`, `object`, a Union of several types) crosses as the object itself:
its function stays native (once narrowed, the value feeds typed code, up to
34x CPython's speed), as does one whose boxed values are its own locals.
A function passing a typed container to a parameter of boxed values (a copy
into CPython objects on every call, natively) keeps CPython's version for
Python callers too, as do its callers.
"""
import ast
import functools
import json
import os
import re
import sys
import time

import _spine
import protocol
from policy import IO_NAMES, REFLECTIVE_NAMES, is_reflective_attr

# Names whose use is I/O or reflection: a function using them stays Python. print is
# compiled: its output waits for the native call to return (native/printing.py).
_UNSAFE = REFLECTIVE_NAMES | (IO_NAMES - {"print"})
_PROGRAM_NAMES = frozenset(("inputs", "result", "__builtins__", "__name__"))
_POLL_SECONDS = 0.002
_POLL_EVERY = 64  # calls between two looks at the clock
DECORATOR = "__spine_hot__"

_loader = None  # native.loader, once setup() ran


def setup(python_dir):
    """Import the module loader (and with it the runtime and loader
    libraries) from the native toolchain, once per process: in the zygote
    before it forks, or in the in-process interpreter. Only the loader is
    imported, not the frontend (which would bring subprocess along) nor the
    compiler library (which only the compile service needs)."""
    global _loader
    if _loader is not None:
        return
    if "native" not in sys.modules:
        import types
        package = types.ModuleType("native")
        package.__path__ = [python_dir + "/native"]
        sys.modules["native"] = package
    sys.path.insert(0, python_dir)
    try:
        import native.loader
    finally:
        sys.path.remove(python_dir)
    _loader = native.loader


# --- Which functions: the plan ----------------------------------------------

class Unit:
    """One function handed to the host: its source with the functions it calls
    (`names`, itself included), and where each piece starts in the program
    (to report lines)."""

    __slots__ = ("name", "names", "source", "lines", "instances")

    def __init__(self, name, names, source, lines, instances=()):
        self.name, self.names, self.source, self.lines = name, names, source, lines
        self.instances = tuple(instances)  # module-level instances it keeps natively (_share_instances)

    def program_line(self, line):
        for unit_start, program_start in reversed(self.lines):
            if line >= unit_start:
                return program_start + line - unit_start
        return line


class Plan:
    """What native mode does with a program: every top-level function in order,
    the units handed to the host, and why the others stay Python. It depends
    on the source and the tool names only, so it is cached with the code."""

    __slots__ = ("functions", "units", "reasons")

    def __init__(self, functions, units, reasons):
        self.functions, self.units, self.reasons = functions, units, reasons

    def shape(self):
        """The plan as JSON data (protocol.Plan), for the host to keep."""
        return {"functions": self.functions, "reasons": self.reasons,
                "units": [{"name": u.name, "names": u.names, "source": u.source, "lines": u.lines,
                           "instances": u.instances} for u in self.units.values()]}

    @classmethod
    def read(cls, shape):
        """The plan shape() gave, from a request: what the host kept of a
        child that planned this program (a KeyError or TypeError when it
        is not that shape: the caller then plans the program itself)."""
        units = {}
        for u in shape["units"]:
            units[u["name"]] = Unit(u["name"], list(u["names"]), u["source"],
                                    [(int(a), int(b)) for a, b in u["lines"]], u["instances"])
        return cls(list(shape["functions"]), units, dict(shape["reasons"]))


def _children(node):
    """ast.iter_child_nodes(@p node) as a list, in its order, without its two generators
    per node: the plan walks every function several times, and ast's walkers were most
    of its time (in each sandboxed child that runs a program natively)."""
    out = []
    for name in node._fields:
        field = getattr(node, name, None)
        if isinstance(field, ast.AST):
            out.append(field)
        elif isinstance(field, list):
            out.extend([item for item in field if isinstance(item, ast.AST)])
    return out


def _walk(node):
    """ast.walk(@p node)'s nodes as a list, in its order (breadth first)."""
    nodes = [node]
    for sub in nodes:  # a list grown while it is iterated: each node's children come after it
        nodes.extend(_children(sub))
    return nodes


def _module_bindings(tree, nodes):
    """How often each name is bound by module-level code (function bodies
    excluded), plus every name some function declares global; @p nodes are
    all of the tree's nodes (one walk serves every question about them)."""
    counts = {}

    def bind(name):
        counts[name] = counts.get(name, 0) + 1

    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name)
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).partition(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bind(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bind(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bind(node.rest)
        stack.extend(_children(node))
    for node in nodes:
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bind(name)
    return counts


# What a unit may carry besides functions: the typing, math, heapq, bisect, dataclasses and
# collections imports, and constants whose value is written with literals, operators,
# earlier constants and math's constants (the frontend folds and bounds them).
_CONTEXT_MODULES = ("typing", "math", "__future__", "heapq", "bisect", "dataclasses", "collections")
_CONSTANT_NODES = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.Name, ast.Attribute, ast.Load,
                   ast.operator, ast.unaryop)


def _context(tree, bindings, nodes):
    """Module-level names a function may use natively -> the statement binding them:
    typing and math imports, constants, classes, each bound once in the program.
    The statement must come before the function's def (checked by _screen), so it
    has run whenever the function can be called."""
    out = {}
    for node in tree.body:
        names = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in _CONTEXT_MODULES:
            names = [a.asname or a.name for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Import) and all(a.name in _CONTEXT_MODULES for a in node.names):
            names = [a.asname or a.name for a in node.names]
        elif isinstance(node, ast.ClassDef):
            names = [node.name]
        else:
            target = _constant_target(node)
            folded_calls = target and {id(n.func) for n in _walk(node.value) if isinstance(n, ast.Call) and
                            isinstance(n.func, ast.Name) and n.func.id in _FOLDED_CALLS and not n.keywords and
                            n.func.id not in bindings}
            if target is not None and _instance_of(node.value, out) is not None:
                names = [target]
            elif target is not None and all(isinstance(n, _CONSTANT_NODES) or isinstance(n, ast.Call) and
                                            id(n.func) in folded_calls for n in _walk(node.value)) and \
                    all(n.id in out or id(n) in folded_calls for n in _walk(node.value) if isinstance(n, ast.Name)):
                names = [target]
        for name in names:
            if bindings.get(name, 0) == 1:
                out[name] = node
    # A module whose attributes the program assigns is not the module native code knows
    # (an instance's fields are another matter: native code keeps its own instance).
    for sub in nodes:
        if isinstance(sub, ast.Attribute) and not isinstance(sub.ctx, ast.Load) and isinstance(sub.value, ast.Name) \
                and not (sub.value.id in out and _instance_of(getattr(out[sub.value.id], "value", None), out)):
            out.pop(sub.value.id, None)
    return out


# Built-in calls a constant may make (guest/native/modulenames.py folds them).
_FOLDED_CALLS = ("ord", "range")


def _instance_of(value, context):
    """The class of `NAME = Class()` (a program class, no arguments), or None. Native code makes
    its own instance, once per loaded module, and keeps it from call to call as CPython keeps
    the module's (guest/native/inheritance.py)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args and \
            not value.keywords and isinstance(context.get(value.func.id), ast.ClassDef):
        return value.func.id
    return None


def _constant_target(node):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id
    return None


def _screen(node, bindings, tools, functions, context=None):
    """(reason or None, names of top-level functions and context statements it uses)."""
    context = context or {}
    if isinstance(node, ast.AsyncFunctionDef):
        return "async functions stay Python", set()
    if node.decorator_list:
        return "decorated functions stay Python", set()
    if bindings.get(node.name, 0) != 1:
        return f"the name {node.name} is bound more than once in the program", set()
    a = node.args
    if a.vararg or a.kwarg:
        return "*args and **kwargs stay Python", set()
    params = a.posonlyargs + a.args + a.kwonlyargs
    for arg in params:
        if arg.annotation is None:
            return f"parameter {arg.arg} has no type annotation", set()
    if node.returns is None:
        return "no return annotation", set()
    local = {arg.arg for arg in params}
    loads = []
    for sub in _live_nodes(node, context):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            return f"declares {', '.join(sub.names)} {type(sub).__name__.lower()}", set()
        if isinstance(sub, ast.Name):
            if isinstance(sub.ctx, ast.Load):
                loads.append(sub)
            else:
                local.add(sub.id)
        elif isinstance(sub, ast.arg):  # a lambda's parameter (sorted(..., key=lambda p: ...))
            local.add(sub.arg)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:  # `except ... as e` binds a local e
            local.add(sub.name)
        elif isinstance(sub, ast.Attribute) and is_reflective_attr(sub.attr):
            return f"line {sub.lineno}: reaches frames or namespaces (.{sub.attr})", set()
    calls = set()
    named = _caught_type_names(node)
    for sub in loads:
        name = sub.id
        if name in local or id(sub) in named:
            continue
        if name in functions:
            calls.add(name)
        elif name in context and context[name].lineno < node.lineno:
            calls.add(name)
        elif name in tools and name not in bindings:
            return f"line {sub.lineno}: calls the tool {name}", set()
        elif name in _UNSAFE:
            return f"line {sub.lineno}: does I/O or reflection ({name})", set()
        elif name in bindings or name in _PROGRAM_NAMES:
            return f"line {sub.lineno}: uses the global {name}", set()
    return None, calls


def _caught_type_names(node):
    """The `type` names of @p node read as `type(e).__name__` of an `except ... as e` name:
    the caught exception's class name, a str (the native frontend lowers only that form of
    them), which reaches nothing `type` otherwise would. The plan's own walk, once, and no
    second look when nothing is caught by name (most functions): ast.walk twice per function
    ran ast.py's generators (and `from collections import deque` at every call) for the
    first time in every sandboxed child: 0.2-0.3 ms of its CPU (bench/RESULTS.md)."""
    nodes = _walk(node)
    caught = {h.name for h in nodes if isinstance(h, ast.ExceptHandler) and h.name}
    if not caught:
        return set()
    return {id(a.value.func) for a in nodes
            if isinstance(a, ast.Attribute) and a.attr == "__name__" and isinstance(a.value, ast.Call) and
            isinstance(a.value.func, ast.Name) and a.value.func.id == "type" and len(a.value.args) == 1 and
            not a.value.keywords and isinstance(a.value.args[0], ast.Name) and a.value.args[0].id in caught}


def _live_nodes(node, context):
    """The nodes of @p node CPython can run: not the branch of `if NAME:` that a constant NAME
    (bound once, to a literal) rules out (`if tracing: print(...)` with `tracing = False`);
    the native frontend lowers only the other branch too."""
    todo = [node]
    while todo:
        sub = todo.pop()
        yield sub
        if isinstance(sub, ast.If) and isinstance(sub.test, ast.Name):
            bound = context.get(sub.test.id)
            value = getattr(bound, "value", None)
            if isinstance(value, ast.Constant) and not isinstance(bound, ast.ClassDef):
                todo.append(sub.test)
                todo.extend(sub.body if value.value else sub.orelse)
                continue
        todo.extend(_children(sub))


def _helper_only(node, context):
    """Why a function can run natively only when native code calls it, or None: a class
    instance in its signature, a Callable parameter (native callers run a copy made for
    the function they pass; Python's callables stay Python: native/callables.py), or
    containers of boxed values (_boxed_containers). A Callable result is no reason: the
    closure crosses into Python (native/crossing.py), or the host says why it cannot."""
    a = node.args
    boxed = _boxed_containers(node)
    if boxed:
        return f"takes or returns boxed values in containers ({', '.join(boxed)}): called from Python " \
            "it runs slower natively than in CPython; native callers still call it natively"
    for ann in [p.annotation for p in a.posonlyargs + a.args + a.kwonlyargs] + [node.returns]:
        for sub in _walk(ann):
            if isinstance(sub, ast.Name) and isinstance(context.get(sub.id), ast.ClassDef):
                return f"class instances ({sub.id}) cannot cross into Python; native code may call it"
    for p in a.posonlyargs + a.args + a.kwonlyargs:
        if any(_names_callable(sub, context) for sub in _walk(p.annotation)):
            return f"parameter {p.arg} is a Callable: Python's callables stay Python; native code may call it"
    return None


def _boxes_a_typed_container(node, functions):
    """The module function to which @p node passes one of its typed containers (a parameter
    or annotated local such as `xs: List[int]`, or a display or comprehension, which native
    code builds typed) where that function's parameter holds boxed values (a bare `list`,
    `Any`), or None. Natively the argument is copied into new CPython objects on every such
    call (native/calls.py) and the callee reads it entry by entry through boxes: called from
    Python, such callers in corpus_boxed_args.py ran at 0.07-0.5x CPython's speed."""
    a = node.args
    typed = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs if _typed_container(p.annotation)}
    calls = []
    for sub in _walk(node):
        if isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Name) and _typed_container(sub.annotation):
            typed.add(sub.target.id)
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in functions:
            calls.append(sub)
    for call in calls:
        b = functions[call.func.id].args
        positional = b.posonlyargs + b.args
        by_name = {p.arg: p for p in b.args + b.kwonlyargs}
        passed = [(positional[i] if i < len(positional) else None, v) for i, v in enumerate(call.args)]
        passed += [(by_name.get(k.arg), k.value) for k in call.keywords]
        for param, value in passed:
            made = isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp))
            if (made or isinstance(value, ast.Name) and value.id in typed) and param is not None and \
                    param.annotation is not None and _boxing(param.annotation):
                return call.func.id
    return None


def _typed_container(ann):
    """Is @p ann a container of typed values (`List[int]`, `dict[str, float]`)?"""
    return isinstance(ann, ast.Subscript) and _annotation_name(ann.value) in _CONTAINERS and _boxing(ann) is None


# Annotations the frontend types as boxed values (native/typerules.py): `Any`, `object`, a
# Union of several types (one box each), and a container without its element types.
_BOX_NAMES = frozenset(("Any", "object"))
_BARE_CONTAINERS = frozenset(("list", "dict", "tuple", "List", "Dict", "Tuple"))
_CONTAINERS = _BARE_CONTAINERS | {"set", "Set"}


def _boxed_containers(node):
    """The annotations of @p node's parameters and return that are containers of boxed values
    (`list`, `Dict[str, Any]`, `List[Dict[str, Any]]`), spelled as written, or []. Such an
    argument is read entry by entry, each entry a box, and every operation on an entry is an
    indirect call into CPython's abstract API: called from Python the function runs slower
    than CPython itself (runtime/compiler/RATIONALE.md, boxed values). A single boxed value
    (`Any`, a Union) crosses as the object itself and leaves the function native: what it
    computes once it has narrowed the value is typed code. Locals do not count: a function
    filling its own bare list ran as fast as CPython."""
    a = node.args
    annotations = [p.annotation for p in a.posonlyargs + a.args + a.kwonlyargs] + [node.returns]
    return [ast.unparse(ann) for ann in annotations if _boxing(ann) == "entries"]


def _boxing(ann):
    """What the frontend makes of annotation @p ann: "box" (one boxed value), "entries" (a
    container holding boxed values) or None (typed values only)."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):  # a forward reference
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    name = _annotation_name(ann)
    if name in _BOX_NAMES:
        return "box"
    if name in _BARE_CONTAINERS:
        return "entries"
    members = _union_members(ann)
    if members is not None:
        values = [m for m in members if not (isinstance(m, ast.Constant) and m.value is None)]
        if len({ast.dump(m) for m in values}) != 1:
            return "box"  # several types: the value is one box, whatever the members hold
        kinds = {_boxing(m) for m in values}
        return "box" if "box" in kinds else kinds.pop()  # Optional[X] is X's
    if isinstance(ann, ast.Subscript) and _annotation_name(ann.value) in _CONTAINERS:
        items = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return "entries" if any(_boxing(i) for i in items) else None
    return None


def _annotation_name(node):
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _union_members(node):
    """The members of `Union[...]`, `Optional[X]` (X and None) or `A | B`, nested ones
    flattened, or None for any other annotation."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [m for side in (node.left, node.right) for m in (_union_members(side) or [side])]
    if isinstance(node, ast.Subscript) and _annotation_name(node.value) in ("Union", "Optional"):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if _annotation_name(node.value) == "Optional":
            items = items + [ast.Constant(None)]
        return [m for item in items for m in (_union_members(item) or [item])]
    return None


def _names_callable(node, context):
    """Whether @p node spells typing's Callable (`Callable`, `C` imported as it, `typing.Callable`)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "Callable" and isinstance(node.value, ast.Name)
    imported = context.get(node.id) if isinstance(node, ast.Name) else None
    return isinstance(imported, ast.ImportFrom) and imported.module in ("typing", "collections.abc") and \
        any(a.name == "Callable" and (a.asname or a.name) == node.id for a in imported.names)


def plan(source, tools, tree=None):
    """The Plan of a program; `tools` are the names of its tools, `tree` its
    parsed source if the caller has it (plan only reads it)."""
    if "def" not in source:
        return Plan([], {}, {})
    if tree is None:
        tree = ast.parse(source)
    functions = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.setdefault(node.name, node)
    every_node = list(_walk(tree))
    bindings = _module_bindings(tree, every_node)
    context = _context(tree, bindings, every_node)
    own, calls = {}, {}
    for name, node in functions.items():
        own[name], calls[name] = _screen(node, bindings, tools, functions, context)
    _share_instances(tree, context, functions, own)
    for name, node in context.items():  # what a class or constant itself names
        own.setdefault(name, None)
        # A class's methods run after the program's top level, so they may name classes defined later.
        later_ok = isinstance(node, ast.ClassDef)
        calls.setdefault(name, {n.id for n in _live_nodes(node, context) if isinstance(n, ast.Name) and n.id != name and
                                (n.id in functions or n.id in context and (context[n.id].lineno < node.lineno or
                                                                         later_ok and isinstance(context[n.id],
                                                                                                 ast.ClassDef)))})
    units, reasons, copies = {}, {}, {}
    source_lines = None  # split once, when the first unit needs them
    for name in functions:
        if own[name] is not None:
            reasons[name] = own[name]
            continue
        helper = _helper_only(functions[name], context)
        if helper:
            reasons[name] = helper
            continue
        # Everything it calls, directly or not, is compiled into its module.
        reach, todo = {name}, [name]
        while todo:
            for callee in sorted(calls[todo.pop()]):
                if callee not in reach:
                    reach.add(callee)
                    todo.append(callee)
        bad = sorted(c for c in reach if own[c] is not None)
        if bad:
            reasons[name] = f"calls {bad[0]}, which stays Python ({own[bad[0]]})"
            continue
        for c in reach - copies.keys():  # each function read once, however many units reach it
            copies[c] = _boxes_a_typed_container(functions[c], functions) if c in functions else None
        copying = sorted((c, copies[c]) for c in reach if copies.get(c))
        if copying:
            where, callee = copying[0]
            reasons[name] = f"{'it' if where == name else where + '()'} passes a typed container to {callee}(), " \
                "whose parameter holds boxed values: natively every call copies it into CPython objects, slower " \
                "than in CPython; native callers still call it natively"
            continue
        late = sorted(c for c in reach if c in context and context[c].lineno > functions[name].lineno)
        if late:  # a class's method may name a later class; the function must come after both
            reasons[name] = f"uses {late[0]}, defined after it"
            continue
        pieces, lines, at = [], [], 1
        nodes = sorted({id(n): n for n in (functions.get(c) or context[c] for c in reach)}.values(),
                       key=lambda n: n.lineno)
        if source_lines is None:
            source_lines = _source_lines(source)
        for node in nodes:
            text, first = _segment(source_lines, node)
            pieces.append(text)
            lines.append((at, first))
            at += text.count("\n") + 2
        unit_functions = [n.name for n in nodes if isinstance(n, ast.FunctionDef)]
        kept = sorted(c for c in reach if c in context and not isinstance(context[c], (ast.ClassDef, ast.Import,
                      ast.ImportFrom)) and _instance_of(context[c].value, context) is not None)
        units[name] = Unit(name, unit_functions, "\n\n".join(pieces) + "\n", lines, kept)
    return Plan(list(functions), units, reasons)


def _source_lines(source):
    """@p source's lines as ast.get_source_segment splits them (only \\r\\n, \\r and \\n
    end a line), each kept with its end, and encoded: node offsets count UTF-8 bytes."""
    lines, start = [], 0
    for match in _LINE_END.finditer(source):
        lines.append(source[start:match.end()].encode())
        start = match.end()
    if start < len(source):
        lines.append(source[start:].encode())
    return lines


_LINE_END = re.compile(r"\r\n|\r|\n")


def _segment(lines, node):
    """(ast.get_source_segment(source, node), its first line) on lines split once
    (_source_lines): that function splits the whole program again for every node, which
    made the plan of a program with many functions quadratic in its length. A top-level
    class's decorators are included (`@dataclass` makes it another class), which ast's
    segment leaves out."""
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        first, col = decorators[0].lineno - 1, 0
    else:
        first, col = node.lineno - 1, node.col_offset
    last = node.end_lineno - 1
    if first == last:
        return lines[first][col:node.end_col_offset].decode(), first + 1
    return b"".join([lines[first][col:], *lines[first + 1:last],
                     lines[last][:node.end_col_offset]]).decode(), first + 1


def _share_instances(tree, context, functions, own):
    """Native code keeps its own object for a module-level instance (`area = WorkArea()`): only
    if no Python code can see the name (top-level statements, functions that stay Python) may
    native functions use it; otherwise each function using it stays Python too (to a fixed point)."""
    instances = {n for n, node in context.items() if not isinstance(node, (ast.ClassDef, ast.Import, ast.ImportFrom))
                 and _instance_of(node.value, context) is not None}
    if not instances:
        return
    top = {n.id for stmt in tree.body if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           and not any(stmt is context.get(i) for i in instances)
           for n in _walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    # What each function and class reaches through the classes it names (their methods use instances too).
    names = {name: {n.id for n in _walk(node) if isinstance(n, ast.Name)}
             for name, node in list(functions.items()) + [(n, c) for n, c in context.items() if isinstance(c, ast.ClassDef)]}
    reach = {name: set(seen) for name, seen in names.items()}
    grown = True
    while grown:
        grown = False
        for name, seen in reach.items():
            more = set().union(*(reach[c] for c in seen if c in reach and c not in functions)) - seen
            if more:
                seen |= more
                grown = True
    uses = {name: reach[name] & instances for name in functions}
    shared = instances & top
    changed = True
    while changed:
        changed = False
        shared |= {i for name in functions if own[name] is not None for i in uses[name]}
        # Each native module keeps its own instance: Python may enter at most one of the
        # units reaching it (an eligible function Python calls, or that no native code calls).
        # Python runs the methods of the classes Python code names (their calls enter native code too).
        python_calls = top | {n for name in functions if own[name] is not None for n in names[name]}
        python_calls |= {n for c in python_calls if c in names and c not in functions for n in reach[c]}
        native_calls = {n for name in names if own.get(name) is None and name not in python_calls
                        for n in names[name] if n != name}
        for i in instances - shared:
            roots = [f for f in functions if own[f] is None and i in uses[f] and
                     (f in python_calls or f not in native_calls)]
            if len(roots) > 1:
                shared.add(i)
        for name in functions:
            hit = sorted(uses[name] & shared)
            if own[name] is None and hit:
                own[name] = f"uses {hit[0]}, a module-level instance Python code uses too"
                changed = True


def decorate(tree, plan):
    """Put @__spine_hot__ on the program's eligible top-level functions, and on the
    functions their units contain (a unit switches once all of them are defined)."""
    contained = set(plan.units).union(*(u.names for u in plan.units.values()))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in contained and not node.decorator_list:
            node.decorator_list = [ast.copy_location(ast.Name(DECORATOR, ast.Load()), node)]
    return tree


# --- One execution -----------------------------------------------------------

_fd_uses = {}  # descriptor number -> modules loaded through it by this process


def _fd_path(fd):
    """The path to dlopen a module's descriptor by. dlopen returns the object
    it already loaded under the same name, and descriptor numbers come back
    once closed: a number used again is spelled anew (/proc/self/fd/./N is
    the same link), so each module is loaded as itself."""
    uses = _fd_uses.get(fd, 0)
    _fd_uses[fd] = uses + 1
    return "/proc/self/fd/" + "./" * uses + str(fd)


def _descriptor(u, fds):
    """A unit whose module came as a descriptor with the answer (a sandboxed
    child): its "module" is the index among the answer's descriptors. One
    that did not arrive (the child had no room for it) is asked for again."""
    index = u.pop("module")
    if isinstance(index, int) and 0 <= index < len(fds):
        u["fd"] = fds[index]
        u["path"] = _fd_path(fds[index])
    else:
        u["status"], u["resend"] = "pending", True


def _close(fds):
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


class _Entry:
    __slots__ = ("name", "python", "wrapper", "target", "calls", "status", "path", "module", "reason",
                 "switched_after", "native", "cache")

    def __init__(self, name):
        self.name = name
        self.python = self.wrapper = self.target = self.native = self.path = self.module = None
        self.calls = 0
        self.status = "cold"
        self.reason = ""
        self.switched_after = None
        self.cache = ""


class Hot:
    """Native mode of one execution. `options` is the request's
    {"mode": "eager" | "auto", "hot": calls}; `scope` the program's globals."""

    def __init__(self, plan, options, scope):
        self.plan = plan
        self.mode = options.get("mode", "eager")
        self.threshold = max(1, int(options.get("hot", 1000)))
        self.scope = scope
        self.entries = {name: _Entry(name) for name in plan.functions}
        # This execution's units: auto mode drops some, and the plan is
        # shared (cached with the code, or kept by the host).
        self.units = dict(plan.units)
        self.pending = 0
        self.last_poll = 0.0

    def _ask(self, request):
        try:
            answer = json.loads(_spine.native(json.dumps(request)))
        except RuntimeError as error:
            return str(error)
        fds = answer.get(protocol.NATIVE_DESCRIPTORS, [])
        if "error" in answer:
            _close(fds)
            return answer["error"]
        units = answer.get("units", [])
        for u in units:
            if "module" in u:
                _descriptor(u, fds)
        _close(set(fds) - {u.get("fd") for u in units})
        return units

    def start(self, always=False, kept=None):
        """Before the program runs: hand every unit to the host (eager: and
        wait for their modules; auto: learn which are cached). With
        `always` the start is sent even with no unit: the host that asked
        for the plan (`kept`, what this guest made of the program) believes
        only the first native crossing, which must be this one, sent
        before the program runs."""
        for name, reason in self.plan.reasons.items():
            self.entries[name].reason = reason
        if self.mode == "auto":
            # Switching after Python calls changed the module's object would leave them behind.
            for u in [u for u in self.units.values() if u.instances]:
                self.entries[u.name].reason = f"keeps the module-level instance {u.instances[0]} natively: " \
                    "native only in eager mode (from the first call)"
                del self.units[u.name]
        if not self.units and not always:
            return
        units = [{"name": u.name, "source": u.source} for u in self.units.values()] if _loader else []
        request = {"op": protocol.NATIVE_START, "units": units}
        if kept is not None:
            request[protocol.NATIVE_KEPT] = kept
        if _loader is None and not always:
            self._refuse("the guest has no native module loader")
            return
        answer = self._ask(request)
        if isinstance(answer, str):
            self._refuse(answer)
            return
        if _loader is None:
            self._refuse("the guest has no native module loader")
            return
        self._take_all(answer)

    def _take_all(self, units):
        """Take an answer's units. A ready unit whose module the answer could
        not carry (one answer carries at most so many descriptors) is "held":
        the next poll hands it over, so poll until none is held."""
        while units:
            for u in units:
                self._take(u)
            for u in units:  # asked for alone: an answer with one descriptor
                if u.get("resend"):
                    self._resend(u["name"])
            if not any(u.get("held") for u in units):
                return
            units = self._ask({"op": protocol.NATIVE_POLL})
            if isinstance(units, str):
                return

    def _resend(self, name):
        e = self.entries[name]
        answer = self._ask({"op": protocol.NATIVE_COMPILE, "name": name})
        u = answer[0] if isinstance(answer, list) and answer else {}
        if u.get("name") == name and u.get("status") == "ready" and not u.get("resend"):
            self._take(u)
        elif e.status == "pending":
            self.pending -= 1
            e.status = "failed"
            e.reason = "service: the module's descriptor did not arrive (too many open files)"

    def _refuse(self, message):
        for name in self.units:
            self.entries[name].reason = "the host refused native code: " + message

    def _take(self, u):
        e = self.entries.get(u.get("name"))
        if e is None or e.status in ("ready", "failed"):
            _close([u.get("fd")])
            return
        if e.status == "pending":
            self.pending -= 1
        e.status, e.cache = u.get("status"), u.get("cache", "")
        if e.status == "pending":
            self.pending += 1
        elif e.status == "ready":
            e.path = u.get("path")
            if "fd" in u:
                self._map(e, u["fd"])
            if e.python is not None and e.status == "ready":
                self._switch(e)
        elif e.status == "failed":
            e.reason = self._failure(e.name, u.get("failure") or {})

    def _failure(self, name, f):
        kind, message = f.get("kind", "error"), f.get("message", "")
        if f.get("construct"):
            line = self.units[name].program_line(f.get("line", 0))
            return f"not compiled: line {line}, column {f.get('col', 0)}: {f['construct']}: {message}"
        return f"{kind}: {message}"

    def _map(self, e, fd):
        """A module handed over as a descriptor is loaded at once and the
        descriptor closed: the child holds no more descriptors than it must,
        and the program gets no time to swap another file in under it."""
        try:
            e.module = _loader.module_loader(e.path)
        except Exception as error:  # noqa: BLE001 - any failure keeps the Python version
            self._unloadable(e, error)
        finally:
            _close([fd])

    def _load(self, e):
        try:
            module = e.module if e.module is not None else _loader.module_loader(e.path)
            return module.get_function(e.name, fallback=e.python)
        except Exception as error:  # noqa: BLE001 - any failure keeps the Python version
            self._unloadable(e, error)
            return None

    @staticmethod
    def _unloadable(e, error):
        e.status, e.reason = "failed", f"cannot load the compiled module: {type(error).__name__}: {error}"

    def _switch(self, e):
        """Bind the native version, once every function its module calls has
        been defined: until then CPython would raise NameError where native
        code would not. decorate() tries again at each def."""
        if e.native is not None or e.python is None:
            return
        if any(self.entries[name].python is None for name in self.units[e.name].names):
            return
        fast = self._load(e)
        if fast is None:
            return
        e.native = e.target = fast
        e.switched_after = e.calls
        bound = self.scope.get(e.name)
        if bound is not None and (bound is e.wrapper or bound is e.python):
            self.scope[e.name] = fast

    def decorate(self, fn):
        """@__spine_hot__: the binding a `def` of an eligible function gets."""
        e = self.entries.get(fn.__name__)
        if e is None or e.python is not None:
            return fn
        e.python = e.target = fn
        for other in self.entries.values():  # modules that waited for this def
            if other is not e and other.status == "ready":
                self._switch(other)
        if e.status == "ready":
            self._switch(e)
            if e.native is not None:
                return e.native
        if self.mode == "auto" and e.status in ("cold", "pending") and not e.reason:
            e.wrapper = self._counting(e)
            return e.wrapper
        return fn

    def _counting(self, e):
        hot, threshold = self, self.threshold

        def counting(*args, **kwargs):
            e.calls += 1
            if e.calls == threshold:
                hot._heat(e)
            elif hot.pending and not e.calls % _POLL_EVERY:
                hot._check()
            return e.target(*args, **kwargs)

        return functools.update_wrapper(counting, e.python)

    def _heat(self, e):
        if e.status != "cold":
            return
        answer = self._ask({"op": protocol.NATIVE_COMPILE, "name": e.name})
        if isinstance(answer, str):
            e.status, e.reason = "failed", "the host refused native code: " + answer
            return
        self._take_all(answer)
        self.last_poll = time.perf_counter()

    def _check(self):
        now = time.perf_counter()
        if now - self.last_poll < _POLL_SECONDS:
            return
        self.last_poll = now
        answer = self._ask({"op": protocol.NATIVE_POLL})
        if isinstance(answer, str):
            self.pending = 0
            return
        self._take_all(answer)

    def report(self):
        """The trace: one entry per top-level function, in order."""
        out = []
        for name in self.plan.functions:
            e = self.entries[name]
            item = {"name": name}
            if e.native is not None:
                item["status"] = "native"
                item["switched_after"] = e.switched_after
                item["fallbacks"] = e.native.fallbacks
            else:
                item["status"] = "python"
                item["reason"] = e.reason or self._why_python(e)
                if self.mode == "auto":
                    item["calls"] = e.calls
            out.append(item)
        return json.dumps(out)

    def _why_python(self, e):
        if e.python is None:
            return "its definition never ran"
        if e.status == "ready":
            return "a function it calls was never defined"
        if e.status == "pending":
            return "still compiling when the program ended"
        if self.mode == "auto" and e.calls < self.threshold:
            return f"not hot: called {e.calls} times (threshold {self.threshold})"
        return f"no module ({e.status})"
