# expect: error ImportError
# ptrace needs a native call: through ctypes, which is refused.
import ctypes
libc = ctypes.CDLL(None)
result = libc.ptrace(16, 1, 0, 0)
