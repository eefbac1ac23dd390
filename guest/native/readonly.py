"""Parameters a function only reads: it never changes the object, keeps it,
returns it or compares its identity. Read from the source, to a fixed point
over calls between the module's functions.

A typed container (`List[int]`, `Dict[str, int]`) passed to a parameter that
holds boxed values (bare `list` / `dict`, `Any`, `object`) becomes a new
Python object built from it: a copy. CPython passes the object itself, so the
copy is exact only where the callee could not tell the difference: nothing it
does to the parameter may change it (the caller would not see the change),
let it escape (a later change through the caller's name would not show in
the copy) or test its identity."""
import ast

from .nesting import parameters

# Calls that read their arguments and keep none of them.
READING_BUILTINS = frozenset({"len", "sum", "min", "max", "sorted", "list", "tuple", "set", "frozenset", "dict",
                              "str", "repr", "any", "all", "enumerate", "zip", "bool", "isinstance", "reversed"})
# Methods of list and dict that leave the object as it is and return something new.
READING_METHODS = frozenset({"get", "keys", "values", "items", "count", "index", "copy"})


def _parents(fdef):
    out = {}
    for node in ast.walk(fdef):
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _reads_only(name_node, parent, grand):
    """Does this load of the parameter only read it (by where it stands)?"""
    if isinstance(parent, ast.Subscript):
        return parent.value is name_node and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, (ast.For, ast.comprehension)):
        return parent.iter is name_node
    if isinstance(parent, ast.Compare):
        return not any(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops)
    if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.FormattedValue)):
        return True
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return parent.test is name_node
    if isinstance(parent, ast.Attribute):
        return parent.attr in READING_METHODS and isinstance(grand, ast.Call) and grand.func is parent
    return False


def readonly_parameters(fdefs):
    """Function name -> the parameters it only reads (see the module docstring)."""
    params = {f.name: [a.arg for a in parameters(f)] for f in fdefs}
    readonly, passes = {}, {}
    for f in fdefs:
        own, parents = set(params[f.name]), _parents(f)
        bad, on = set(), []
        for node in ast.walk(f):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                bad.add(node.target.id)  # `xs += ys` extends the list itself
            if not (isinstance(node, ast.Name) and node.id in own and isinstance(node.ctx, ast.Load)):
                continue
            parent = parents.get(id(node))
            if isinstance(parent, ast.Call) and node in parent.args and isinstance(parent.func, ast.Name):
                callee = parent.func.id
                if callee in params and callee not in own:
                    i = parent.args.index(node)
                    if i < len(params[callee]):
                        on.append((callee, params[callee][i], node.id))
                        continue
                elif callee in READING_BUILTINS and callee not in own:
                    continue
                bad.add(node.id)
            elif not _reads_only(node, parent, parents.get(id(parent))):
                bad.add(node.id)
        readonly[f.name], passes[f.name] = own - bad, on
    shrunk = True
    while shrunk:  # passed on to a parameter that is not only read: not only read either
        shrunk = False
        for name, on in passes.items():
            for callee, pname, arg in on:
                if pname not in readonly[callee] and arg in readonly[name]:
                    readonly[name].discard(arg)
                    shrunk = True
    return readonly
