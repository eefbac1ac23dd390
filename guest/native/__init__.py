"""spine native hot functions: compile typed pure Python functions to C++
modules and call them with CPython's meaning.

    names = simple_compile(sum_to, "/tmp/sum_to.so")
    module = module_loader("/tmp/sum_to.so")
    fast = module.get_function("sum_to", fallback=sum_to)

check_eligible(program_source) -> [(function name, None or why not)] tells,
per top-level function of a whole program, whether it can run natively.
"""
from .compiler import check_eligible, parse_module, simple_compile, to_cpp
from .errors import CompileError
from .loader import Module, NativeFallback, NativeFunction, module_loader

__all__ = ["simple_compile", "to_cpp", "parse_module", "check_eligible", "module_loader", "Module", "NativeFunction",
           "NativeFallback", "CompileError"]
