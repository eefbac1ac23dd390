# expect: error PermissionError
# native: eager
# deadline: 30s
# List the directory of the module the loader was handed, to find other
# executions' modules, generated sources (KEY.cc) and failure records. A
# sandboxed child is never told a path into the cache: its module came as a
# descriptor, so the directory is its own /proc/self/fd, which Landlock does
# not let it list.
import os
def square(x: int) -> int:
    return x * x
square(3)
module = __spine_hot__.__self__.entries['square'].path
result = os.listdir(os.path.dirname(module))
