# expect: ok
# value: "OSError"
# isolation: sandbox
# Removing a stdlib file is refused with a catchable error.
import os
try:
    os.remove(os.__file__)
    result = "removed"
except OSError as e:
    result = type(e).__name__
