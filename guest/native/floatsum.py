"""sum(xs) of floats without a start: CPython adds 0 + x0 + x1 + ..., whose
value is 0.0 + x0 + ... computed as floats, except for no items at all,
where it is the int 0 and the result type would depend on the data. The
empty case is the explicit "cannot do this natively": the call goes back
to CPython, which computes it from the start. That is exact only if
nothing the caller can see changed before: native code changes copies of
list and dict arguments and writes them back only when it returns, so the
function must not take class instances (whose fields it changes in place)
and the module must have no module-level instances."""
from . import irbuilder as ir
from .errors import CompileError
from .typemodel import BOOL, FLOAT


def float_sum(parser, node, items):
    scope = parser.scope
    sig = scope.signatures.get(scope.name)
    why = "a method" if sig is None or scope.init_of is not None else \
        "a function taking class instances" if any(_has_class(p) for p in sig.params) else \
        "a module with module-level instances" if scope.module.names.instances else None
    if why:
        raise CompileError(node, "Builtin", f"sum() of floats without a start in {why} (sum([]) is the int 0: "
                           "CPython would have to compute the call again)")
    t = items if items.pure else scope.temp("sum", items.ty)
    nonempty = ir.binary("PrimNE", ir.call_op("len", [t], ir.INT), ir.const_int(0), BOOL)
    check = ir.if_then_else(nonempty, ir.const_bool(False), ir.call_op("raise_in_python", [], BOOL))
    total = ir.let(scope.temp("sum_nonempty", BOOL), check, ir.call_op("sum", [t, ir.const_float(0.0)], FLOAT))
    return total if items.pure else ir.let(t, items, total)


def _has_class(ty):
    return ty.kind == "class" or any(_has_class(a) for a in getattr(ty, "args", ()) or ())
