"""module_loader / get_function (seed 004) and the fallback wrapper that
gives native functions CPython's meaning for the cases native code cannot
represent (int64 overflow, ints outside int64, arguments of another type,
messages that need CPython's own repr).

It imports spine_loader alone, neither spine_compiler nor spine_runtime: a
process that only runs compiled modules (the sandbox's zygote) loads the
module loader without the compiler library, whose relocations would cost it
milliseconds at start, nor the runtime binding (0.1-0.2 ms more)."""
import ast
import builtins

import spine_loader

from .closureloader import native_factory  # (at setup: a sandboxed child imports nothing later)

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
        (closureloader.py)."""
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
