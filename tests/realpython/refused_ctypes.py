# expect: error ImportError
# isolation: sandbox
# ctypes is refused: it writes arbitrary memory.
import ctypes
