"""A native closure factory as Python calls it: `make_adder(5)` runs the
factory's state function natively and returns a NativeFunction standing
for the closure CPython would have returned (crossing.py compiled it).

That object carries the closure's `__name__` (`add`, `<lambda>`),
`__qualname__` (`make_adder.<locals>.add`) and `__module__`, so the
messages CPython builds from them are unchanged. Where the factory's Python
version is known (the fallback, or the signature it is loaded with), the
loader also builds the very function CPython would have returned: the
factory's nested code object of that name (closurenames.py says which),
its globals, and cells holding the captures the state function returned
(what CPython's cells hold once the factory has returned). Keyword
arguments are bound by that function's parameters, and calls native code
cannot compute (another argument type, an int beyond int64, a wrong number
of arguments) run it, as a NativeFunction runs its fallback; without a
fallback such a call is declined (NativeFallback).

What still differs: `type(f)` is NativeFunction, not `function`, and it has
no `__code__`, `__closure__`, `__defaults__` or `__annotations__` of its
own (runtime/compiler/RATIONALE.md says why that is acceptable)."""
import types

import spine_loader

from .closurenames import bodies_of, state_name


def native_factory(module, name, fallback, signature, function_class):
    """The NativeFunction (@p function_class) for factory @p name of @p module, or KeyError
    if the module has none."""
    names = module.function_names()
    bodies = bodies_of(name, names)
    state = state_name(name)
    if state not in names or not bodies or sorted(bodies) != list(range(len(bodies))):
        raise KeyError(f"module has no function {name!r}")
    python = signature or fallback
    codes = _nested_codes(python)
    makers = []
    for i in range(len(bodies)):
        body, py_name, ordinal = bodies[i]
        code = codes.get((py_name, ordinal))
        if python is not None and code is None:
            raise KeyError(f"{name}() has no nested code object {py_name} #{ordinal}")
        makers.append(_Maker(spine_loader.native_call(module._handle, body), body, py_name, code, python,
                             fallback is not None, name, function_class))
    captured = _capture_names(makers) if python is not None else None
    made_by_state = spine_loader.native_call(module._handle, state)

    def make(*values):
        made = made_by_state(*values)
        return makers[made[0]].closure(made[1:], captured)
    return function_class(make, name, fallback, signature, native_name=state)


def _nested_codes(factory):
    """{(co_name, ordinal): code} of the code objects @p factory's code holds, in its order."""
    out, seen = {}, {}
    for c in getattr(getattr(factory, "__code__", None), "co_consts", ()):
        if isinstance(c, types.CodeType):
            k = seen.get(c.co_name, 0)
            out[(c.co_name, k)] = c
            seen[c.co_name] = k + 1
    return out


def _capture_names(makers):
    """The names of the state's captures, in its order: every name the returned closures read
    from the factory (but a recursive def's own), sorted, as factories.py orders them."""
    return sorted(set().union(*(set(m.code.co_freevars) - {m.py_name} for m in makers)))


class _Maker:
    """Makes the closure object of one closure the factory may return."""

    def __init__(self, body, body_name, py_name, code, python, fall_back, factory, function_class):
        self.body, self.body_name, self.py_name, self.code = body, body_name, py_name, code
        self.python, self.fall_back, self.function_class = python, fall_back, function_class
        self.qualname = code.co_qualname if code is not None else f"{factory}.<locals>.{py_name}"
        self.arity = code.co_argcount if code is not None else None

    def closure(self, captures, names):
        body, arity = self.body, self.arity

        def run(*args):
            if arity is not None and len(args) != arity:
                raise TypeError("a closure called with another number of arguments")
            return body(*args, *captures)
        python = self._python(captures, names) if self.code is not None else None
        f = self.function_class(run, self.py_name, python if self.fall_back else None, python,
                                native_name=self.body_name)
        f.__qualname__ = self.qualname
        f.__dict__["__module__"] = getattr(python or self.python, "__module__", None)
        f.__dict__["__doc__"] = getattr(python, "__doc__", None)
        return f

    def _python(self, captures, names):
        """The function CPython would have returned: the code object, the factory's globals, a
        cell per free name holding its capture (a recursive def's own name: the function)."""
        if len(captures) != len(names):
            raise RuntimeError(f"the state holds {len(captures)} captures for {len(names)} names")
        values = dict(zip(names, captures))
        cells = tuple(types.CellType(values[v]) if v in values else types.CellType() for v in self.code.co_freevars)
        f = types.FunctionType(self.code, self.python.__globals__, self.py_name, None, cells)
        for v, cell in zip(self.code.co_freevars, cells):
            if v not in values:
                cell.cell_contents = f  # its own name (crossing.py refuses any other)
        return f
