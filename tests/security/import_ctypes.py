# expect: error ImportError
# Import ctypes.
import ctypes
result = ctypes.CDLL(None).system(b'id')
