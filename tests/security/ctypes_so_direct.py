# expect: error ImportError
# Load the _ctypes extension file directly with the frozen import machinery.
import sys
m = sys.modules['_frozen_importlib_external']
path = '/usr/lib/python3.11/lib-dynload/_ctypes.cpython-311-x86_64-linux-gnu.so'
loader = m.ExtensionFileLoader('_ctypes', path)
spec = sys.modules['_frozen_importlib'].spec_from_loader('_ctypes', loader)
mod = loader.create_module(spec)
result = 1
