"""The runtime registry, as the frontend reaches it: ``fn("ast.PrimAdd")``."""
import spine_compiler  # noqa: F401  (loads libspine_compiler: registers ast.*, rewriter.*)
import spine_runtime

_cache = {}


def fn(name):
    """The registry function ``name`` (cached)."""
    f = _cache.get(name)
    if f is None:
        f = _cache[name] = spine_runtime.get_global(name)
    return f
