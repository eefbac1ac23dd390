# expect: error FileNotFoundError
# native: eager
# deadline: 30s
# Read the generated C++ kept beside the module the loader was handed
# (KEY.cc next to KEY.so in the cache). The child knows no path into the
# cache, only /proc/self/fd/N, and nothing like KEY.cc exists there.
import os
def cube(x: int) -> int:
    return x * x * x
cube(3)
module = __spine_hot__.__self__.entries['cube'].path
result = open(os.path.splitext(os.path.realpath(module))[0] + '.cc').read()
