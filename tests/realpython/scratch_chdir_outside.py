# expect: ok
# value: "OSError"
# isolation: sandbox
# After chdir to the root, relative writes are refused with a catchable error.
import os
os.chdir("/")
try:
    open("relative.txt", "w")
    result = "wrote"
except OSError as e:
    result = type(e).__name__
