# expect: ok
# value: "OSError"
# isolation: sandbox
# mkdir at the root is refused with a catchable error.
import os
try:
    os.mkdir("/spine-dir")
    result = "made"
except OSError as e:
    result = type(e).__name__
