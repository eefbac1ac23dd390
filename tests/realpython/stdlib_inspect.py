# expect: ok
# value: ["(a, b=2, *args, c, **kw)", ["POSITIONAL_OR_KEYWORD", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"], "doc", true]
# inspect on a program's own functions.
import inspect
def f(a, b=2, *args, c, **kw):
    "doc"
    return a
sig = inspect.signature(f)
result = [str(sig), [p.kind.name for p in sig.parameters.values()], inspect.getdoc(f), inspect.isfunction(f)]
