"""module_loader / get_function (seed 004) and the fallback wrapper that
gives native functions CPython's meaning for the cases native code cannot
represent (int64 overflow, ints outside int64, arguments of another type,
messages that need CPython's own repr)."""
import ast

import spine_compiler

from . import irbuilder as ir

# Faults the runtime has no error kind for arrive as RuntimeError with the Python class in front.
_PREFIXED = {"ZeroDivisionError: ": ZeroDivisionError, "RuntimeError: ": RuntimeError}


class NativeFallback(Exception):
    """Raised by a NativeFunction without a Python version when it cannot compute a call natively."""


class Module:
    """A loaded module; functions taken from it keep it loaded on their own."""

    def __init__(self, handle, path):
        self._handle = handle
        self.path = path

    def function_names(self):
        return list(ir.fn("runtime.ModuleFunctionNames")(self._handle))

    def get_function(self, name, fallback=None):
        """The module function @p name; with @p fallback (the Python function),
        calls the native code cannot represent run @p fallback instead. Calls
        go straight from Python values to the module (spine_compiler.native_call);
        `runtime.ModuleGetFunction` is the same function for runtime callers."""
        return NativeFunction(spine_compiler.native_call(self._handle, name), name, fallback)


def module_loader(path):
    """Load a module built by simple_compile (dlopen RTLD_NOW | RTLD_LOCAL)."""
    return Module(ir.fn("runtime.ModuleLoader")(path), path)


class NativeFunction:
    """Calls a module function; translates its faults into Python's exceptions.

    It carries the `__name__`, `__qualname__`, `__module__` and `__doc__` of
    the Python function it replaces, because CPython builds messages from
    them (`__main__.g() argument after ** must be a mapping`). `__module__`
    and `__doc__` are class attributes, not descriptors, so they can only be
    given per instance through `__dict__`."""

    __slots__ = ("_fn", "__name__", "__qualname__", "__dict__", "fallback", "fallbacks")

    def __init__(self, fn, name, fallback):
        self._fn = fn
        self.__name__ = name
        self.__qualname__ = getattr(fallback, "__qualname__", name)
        self.__dict__["__module__"] = getattr(fallback, "__module__", None)
        self.__dict__["__doc__"] = getattr(fallback, "__doc__", None)
        self.fallback = fallback
        self.fallbacks = 0  # calls the Python version computed instead

    def __call__(self, *args, **kwargs):
        if kwargs:  # native functions bind positionally; CPython binds keywords
            return self._fall_back(args, TypeError("keyword arguments"), kwargs)
        try:
            return self._fn(*args)
        except (OverflowError, TypeError, UnicodeError) as e:
            # "Not representable natively": an int beyond int64 or an int64 overflow,
            # an argument of another type (CPython's version accepts what it accepts),
            # a str that is not UTF-8 (lone surrogates). CPython computes the answer.
            return self._fall_back(args, e)
        except (ValueError, IndexError, KeyError, RuntimeError) as e:
            error = self._translate(e)
            if error is None:
                raise
            if self.fallback is not None:
                # A pure function: the Python version raises the same error again, with
                # CPython's own frames and lines in the traceback.
                return self._fall_back(args, error)
            raise error from None

    def _translate(self, error):
        """The Python exception a native fault stands for, or None if it is not one."""
        text = self._message(error)
        if isinstance(error, KeyError):
            # The native message is CPython's repr of the key; KeyError shows repr(key) again.
            return KeyError(ast.literal_eval(text))
        if not isinstance(error, RuntimeError):
            return type(error)(text)
        for prefix, cls in _PREFIXED.items():
            if text.startswith(prefix):
                return cls(text[len(prefix):])
        return None

    def _message(self, error):
        # The runtime prefixes errors with "name(): "; CPython's messages have no such prefix.
        text = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)
        prefix = self.__name__ + "(): "
        return text[len(prefix):] if text.startswith(prefix) else text

    def _fall_back(self, args, error, kwargs=None):
        if self.fallback is None:
            raise NativeFallback(str(error)) from None
        self.fallbacks += 1
        return self.fallback(*args, **(kwargs or {}))
