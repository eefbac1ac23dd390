# expect: error ImportError
# isolation: sandbox
# A submodule of a refused package is refused too.
import ctypes.util
