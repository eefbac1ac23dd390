"""module_loader / get_function (seed 004) and the fallback wrapper that
gives native functions CPython's meaning for the cases native code cannot
represent (int64 overflow, ints outside int64, arguments of another type)."""
import spine_compiler  # noqa: F401  (registers runtime.ModuleLoader)
import spine_runtime

from . import irbuilder as ir

_ZERODIV = "ZeroDivisionError: "
_FALLBACK = "native fallback: "


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
        calls the native code cannot represent run @p fallback instead."""
        return NativeFunction(ir.fn("runtime.ModuleGetFunction")(self._handle, name), name, fallback)


def module_loader(path):
    """Load a module built by simple_compile (dlopen RTLD_NOW | RTLD_LOCAL)."""
    return Module(ir.fn("runtime.ModuleLoader")(path), path)


class NativeFunction:
    """Calls a module function; translates its faults into Python's exceptions."""

    __slots__ = ("_fn", "__name__", "fallback", "fallbacks")

    def __init__(self, fn, name, fallback):
        self._fn = fn
        self.__name__ = name
        self.fallback = fallback
        self.fallbacks = 0  # calls the Python version computed instead

    def __call__(self, *args, **kwargs):
        if kwargs:
            # Only the Python version binds keywords (and reports CPython's errors for them).
            return self._fall_back(args, TypeError(f"{self.__name__}() got keyword arguments"), kwargs)
        try:
            return self._fn(*args)
        except OverflowError as e:
            # Both the runtime (an int beyond int64) and the module (an int64 overflow) say
            # "not representable": CPython computes the exact answer.
            return self._fall_back(args, e)
        except TypeError as e:
            # Argument count/type mismatch: CPython's version accepts what it accepts.
            return self._fall_back(args, e)
        except ValueError as e:
            if self.fallback is not None:
                # The Python version raises it again with CPython's own frames and lines.
                return self._fall_back(args, e)
            raise ValueError(self._message(e)) from None
        except RuntimeError as e:
            text = str(e)
            i = text.find(_ZERODIV)
            if i >= 0:
                if self.fallback is not None:
                    return self._fall_back(args, e)
                raise ZeroDivisionError(text[i + len(_ZERODIV):]) from None
            raise

    def _message(self, error):
        # The runtime prefixes errors with "name(): "; CPython's messages have no such prefix.
        text = str(error)
        prefix = self.__name__ + "(): "
        return text[len(prefix):] if text.startswith(prefix) else text

    def _fall_back(self, args, error, kwargs=None):
        if self.fallback is None:
            raise NativeFallback(str(error)) from None
        self.fallbacks += 1
        return self.fallback(*args, **(kwargs or {}))
