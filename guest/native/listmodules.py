"""heapq and bisect on a typed list: each call lowers to a list method with a
dotted name (method_table.cc, codegen/heapq.h) that runs CPython's own sift
and bisection loops, so elements end in CPython's order. nlargest and
nsmallest are, as heapq documents them, sorted(xs, reverse=True)[:n] and
sorted(xs)[:n] (none for a negative n); natively only for elements whose equal values cannot be told
apart (no floats: 0.0 and -0.0, or NaNs, would show the heap's own order)."""
import ast

from .errors import CompileError

FUNCTIONS = {"heapq": {"heappush", "heappop", "heapify", "heappushpop", "heapreplace", "nlargest", "nsmallest"},
             "bisect": {"bisect_left", "bisect_right", "insort_left", "insort_right"}}
_ALIASES = {("bisect", "bisect"): "bisect_right", ("bisect", "insort"): "insort_right"}
# The methods that change the list, and those that keep their argument in it (calls.py's tables).
LIST_MUTATORS = {"heapq.heappush", "heapq.heappop", "heapq.heapify", "heapq.heappushpop", "heapq.heapreplace",
                 "bisect.insort_left", "bisect.insort_right"}
LIST_STORING = {"heapq.heappush", "heapq.heappushpop", "heapq.heapreplace", "bisect.insort_left",
                "bisect.insort_right"}


def list_module_call(parser, node, module, name):
    name = _ALIASES.get((module, name), name)
    if name not in FUNCTIONS[module]:
        raise CompileError(node, "ListModule", f"{module}.{name} is not compiled natively")
    parser.keywords(node, ())
    if name in ("nlargest", "nsmallest"):
        return top_n(parser, node, name)
    if not node.args:
        raise CompileError(node, "ListModule", f"{module}.{name}() needs a list")
    method = ast.copy_location(ast.Attribute(node.args[0], f"{module}.{name}", ast.Load()), node)
    return parser.method_call(ast.copy_location(ast.Call(method, node.args[1:], []), node), None)


def top_n(parser, node, name):
    if len(node.args) != 2 or not isinstance(node.args[0], (ast.Name, ast.Constant)) or \
            not parser.scope.module_name("sorted") or not parser.scope.module_name("max"):
        raise CompileError(node, "ListModule", f"heapq.{name}(n, xs) with n a name or constant")
    n, xs = node.args
    reverse = [ast.keyword("reverse", ast.Constant(True))] if name == "nlargest" else []
    ordered = ast.Call(ast.Name("sorted", ast.Load()), [xs], reverse)
    rewritten = ast.fix_missing_locations(ast.copy_location(
        ast.Subscript(ordered, ast.Slice(None, ast.Call(ast.Name("max", ast.Load()), [n, ast.Constant(0)], []), None),
                      ast.Load()), node))
    result = parser.value(rewritten)
    if result.ty.elem.has_float:
        raise CompileError(node, "ListModule", f"heapq.{name}() of floats (equal floats such as 0.0 and -0.0 "
                           "end in the heap's order, not sorted()'s)")
    return result
