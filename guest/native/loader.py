"""module_loader / get_function and the fallback wrapper that
gives native functions CPython's meaning for the cases native code cannot
represent (int64 overflow, ints outside int64, arguments of another type,
messages that need CPython's own repr).

It imports spine_loader alone, neither spine_compiler nor spine_runtime: a
process that only runs compiled modules (the sandbox's zygote) loads the
module loader without the compiler library, whose relocations would cost it
milliseconds at start, nor the runtime binding (0.1-0.2 ms more). What the
loader needs is this one module (closure factories and the names a module
gives their pieces included, below), not three: every module imported costs
the zygote 0.05-0.1 ms of CPU at hot.setup, and a sandboxed child imports
nothing later."""
import ast
import builtins
import re
import types

import spine_loader

# Faults the runtime has no error kind for arrive as RuntimeError with the Python class in front.
_PREFIXED = {"ZeroDivisionError: ": ZeroDivisionError, "RuntimeError: ": RuntimeError}
# An exception of the program's own class (module_abi.h SPINE_FAULT_CLASS): "<class name>: <argument>".
_PROGRAM_CLASS = "program exception "
# A class called with other arguments than one str (SPINE_FAULT_CALLED): "<class name>: <repr of the arguments>".
_CALLED = "exception called "


class NativeFallback(Exception):
    """Raised by a NativeFunction without a Python version when it cannot compute a call natively."""


class Module:
    """A loaded module; functions taken from it keep it loaded on their own."""

    def __init__(self, handle, path):
        self._handle = handle  # a spine_loader.LoadedModule
        self.path = path

    def function_names(self):
        return self._handle.function_names()

    def get_function(self, name, fallback=None, signature=None):
        """The module function @p name; with @p fallback (the Python function),
        calls the native code cannot represent run @p fallback instead. Calls
        go straight from Python values to the module (spine_loader.native_call);
        `runtime.ModuleGetFunction` is the same function for runtime callers.
        Keywords and defaults are bound by the parameters of @p signature (a Python
        function; default @p fallback). A closure factory returns closures Python can call
        (native_factory, below)."""
        try:
            fn = spine_loader.native_call(self._handle, name)
        except KeyError:
            return native_factory(self, name, fallback, signature, NativeFunction)
        return NativeFunction(fn, name, fallback, signature)


def module_loader(path):
    """Load a module built by simple_compile (dlopen RTLD_NOW | RTLD_LOCAL)."""
    return Module(spine_loader.load(path), path)


class NativeFunction:
    """Calls a module function; translates its faults into Python's exceptions.

    It carries the `__name__`, `__qualname__`, `__module__` and `__doc__` of
    the Python function it replaces, because CPython builds messages from
    them (`__main__.g() argument after ** must be a mapping`). `__module__`
    and `__doc__` are class attributes, not descriptors, so they can only be
    given per instance through `__dict__`."""

    __slots__ = ("_fn", "__name__", "__qualname__", "__dict__", "fallback", "fallbacks", "_arity", "_signature",
                 "_prefix")

    def __init__(self, fn, name, fallback, signature=None, native_name=None):
        self._fn = fn
        self.__name__ = name
        self._prefix = (native_name or name) + "(): "  # what the runtime puts before its messages
        self.__qualname__ = getattr(fallback, "__qualname__", name)
        self.__dict__["__module__"] = getattr(fallback, "__module__", None)
        self.__dict__["__doc__"] = getattr(fallback, "__doc__", None)
        self.fallback = fallback
        self.fallbacks = 0  # calls the Python version computed instead
        self._signature = signature or fallback
        code = getattr(self._signature, "__code__", None)
        # Native functions take every parameter by position (keyword-only ones last): a call
        # with another number of positional arguments is bound as CPython binds it first.
        self._arity = code.co_argcount if code is not None and not code.co_kwonlyargcount else -1

    def __call__(self, *args, **kwargs):
        if kwargs or (len(args) != self._arity and self._signature is not None):
            bound = _bind(self._signature, args, kwargs)
            if bound is None:  # CPython binds it (or raises its TypeError)
                return self._fall_back(args, TypeError("arguments native code does not bind"), kwargs)
            return self._invoke(bound, args, kwargs)
        return self._invoke(args, args, None)

    def _invoke(self, values, args, kwargs):
        """The native function on @p values (every parameter by position); @p args and
        @p kwargs are the call as written, for the Python version."""
        # The Python version runs after the except clauses, not inside one: an exception
        # it raises would otherwise carry the native fault as its __context__, and its
        # traceback would show "During handling of the above exception, another exception
        # occurred" with the loader's frames, where CPython shows one exception.
        raised = None
        try:
            return self._fn(*values)
        except spine_loader.Raised as e:
            raised = e.args[0]  # CPython's own exception from a boxed operation: raised as it is
        except (OverflowError, TypeError, UnicodeError) as e:
            # "Not representable natively": an int beyond int64 or an int64 overflow,
            # an argument of another type (CPython's version accepts what it accepts),
            # a str that is not UTF-8 (lone surrogates). CPython computes the answer.
            declined = e
        except (ValueError, IndexError, KeyError, RuntimeError) as e:
            error = self._translate(e)
            if error is None:
                raise
            if self.fallback is None:
                raise error from None
            # A pure function: the Python version raises the same error again, with
            # CPython's own frames and lines in the traceback.
            declined = error
        if raised is not None:
            raise raised
        return self._fall_back(args, declined, kwargs)

    def _translate(self, error):
        """The Python exception a native fault stands for, or None if it is not one."""
        text = self._message(error)
        if isinstance(error, KeyError):
            # The native message is CPython's repr of the key; KeyError shows repr(key) again.
            return KeyError(ast.literal_eval(text))
        if not isinstance(error, RuntimeError):
            return type(error)(text)
        if text.startswith(_PROGRAM_CLASS):
            return self._program_exception(text[len(_PROGRAM_CLASS):])
        if text.startswith(_CALLED):
            return self._called_exception(text[len(_CALLED):])
        for prefix, cls in _PREFIXED.items():
            if text.startswith(prefix):
                return cls(text[len(prefix):])
        return None

    def _program_exception(self, text):
        """The exception of the program's class named in front of @p text, found as CPython's
        raise finds it: a global of the function's module."""
        name, _, argument = text.partition(": ")
        cls = getattr(self._signature or self.fallback, "__globals__", {}).get(name)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            return NativeFallback(f"the exception class {name} is not known here")
        return cls(argument)

    def _called_exception(self, text):
        """The exception of the class named in front of @p text called with the arguments whose
        repr follows, as CPython's raise calls it: the name a global of the function's module,
        else a builtin. Arguments with no literal repr (inf, nan) are CPython's to raise."""
        name, _, arguments = text.partition(": ")
        cls = getattr(self._signature or self.fallback, "__globals__", {}).get(name, getattr(builtins, name, None))
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            return NativeFallback(f"the exception class {name} is not known here")
        try:
            values = ast.literal_eval(arguments)
        except (ValueError, SyntaxError):
            return NativeFallback(f"arguments of {name} raised in Python")
        return cls(*values)

    def _message(self, error):
        # The runtime prefixes errors with "name(): "; CPython's messages have no such prefix.
        text = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)
        return text[len(self._prefix):] if text.startswith(self._prefix) else text

    def _fall_back(self, args, error, kwargs=None):
        if self.fallback is None:
            raise NativeFallback(str(error)) from None
        self.fallbacks += 1
        return self.fallback(*args, **(kwargs or {}))


_MISSING = object()
_STAR_FLAGS = 0x04 | 0x08  # CO_VARARGS | CO_VARKEYWORDS


def _bind(function, args, kwargs):
    """@p args and @p kwargs bound to every parameter of @p function by position, with
    its defaults (immutable constants: compiled functions have no others); None where
    CPython would raise TypeError, or without a Python version to read the signature of."""
    code = getattr(function, "__code__", None)
    if code is None or code.co_flags & _STAR_FLAGS or len(args) > code.co_argcount:
        return None
    npos, total = code.co_argcount, code.co_argcount + code.co_kwonlyargcount
    names = code.co_varnames[:total]
    out = list(args) + [_MISSING] * (total - len(args))
    for key, value in kwargs.items():
        try:
            i = names.index(key)
        except ValueError:
            return None
        if i < code.co_posonlyargcount or out[i] is not _MISSING:
            return None
        out[i] = value
    defaults = function.__defaults__ or ()
    kwdefaults = function.__kwdefaults__ or {}
    first_default = npos - len(defaults)
    for i in range(total):
        if out[i] is not _MISSING:
            continue
        if first_default <= i < npos:
            out[i] = defaults[i - first_default]
        elif i >= npos and names[i] in kwdefaults:
            out[i] = kwdefaults[names[i]]
        else:
            return None
    return out


# --- How a module names a closure factory's pieces --------------------------
#
# Shared by the compiler (factories.py, crossing.py, compiler.py), which names
# them so, and the loader, which reads them back from the module's registry.
# A factory `F` compiles to `F__in__0state` (its body, returning the closure
# it made as `(i, captures...)`) and one function per closure it returns,
# `F__in__<i>closure<k>_<name>`: closure i's body, taking its parameters,
# then its captures. `<name>` is the Python function's `__name__` (`lambda`
# for `<lambda>`, a keyword no def can be named) and `<k>` says which of the
# factory's nested code objects of that name it is, in the order CPython's
# compiler makes them (its `co_consts`), so the loader can give it the very
# code object CPython would have run. A nested def cannot be named `0state`
# nor `<digits>closure...` (an identifier starts with no digit), so these
# names never meet a lifted nested def's `F__in__<def name>`.

_SEP = "__in__"


def state_name(factory):
    return f"{factory}{_SEP}0state"


def body_name(factory, index, ordinal, py_name):
    return f"{factory}{_SEP}{index}closure{ordinal}_{'lambda' if py_name == '<lambda>' else py_name}"


def bodies_of(factory, names):
    """{closure index: (body function name, its Python __name__, which code object of that
    name)} for @p factory among the function @p names of a module."""
    pattern = re.compile(re.escape(factory + _SEP) + r"([1-9][0-9]*|0)closure([0-9]+)_(.+)\Z")
    out = {}
    for name in names:
        m = pattern.match(name)
        if m:
            py_name = "<lambda>" if m.group(3) == "lambda" else m.group(3)
            out[int(m.group(1))] = (name, py_name, int(m.group(2)))
    return out


def factory_of_state(name):
    """The factory whose state function @p name is, or None."""
    suffix = _SEP + "0state"
    return name[:-len(suffix)] if name.endswith(suffix) and len(name) > len(suffix) else None


def factory_of_body(name):
    """The factory whose closure body @p name is, or None."""
    m = re.match(r"(.+?)" + re.escape(_SEP) + r"(?:[1-9][0-9]*|0)closure[0-9]+_.+\Z", name)
    return m.group(1) if m else None


# --- A native closure factory as Python calls it -----------------------------
#
# `make_adder(5)` runs the
# factory's state function natively and returns a NativeFunction standing
# for the closure CPython would have returned (crossing.py compiled it).
#
# That object carries the closure's `__name__` (`add`, `<lambda>`),
# `__qualname__` (`make_adder.<locals>.add`) and `__module__`, so the
# messages CPython builds from them are unchanged. Where the factory's Python
# version is known (the fallback, or the signature it is loaded with), the
# loader also builds the very function CPython would have returned: the
# factory's nested code object of that name (bodies_of says which),
# its globals, and cells holding the captures the state function returned
# (what CPython's cells hold once the factory has returned). Keyword
# arguments are bound by that function's parameters, and calls native code
# cannot compute (another argument type, an int beyond int64, a wrong number
# of arguments) run it, as a NativeFunction runs its fallback; without a
# fallback such a call is declined (NativeFallback).
#
# What still differs: `type(f)` is NativeFunction, not `function`, and it has
# no `__code__`, `__closure__`, `__defaults__` or `__annotations__` of its
# own (runtime/compiler/RATIONALE.md says why that is acceptable).

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
