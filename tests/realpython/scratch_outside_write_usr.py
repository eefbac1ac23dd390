# expect: ok
# value: "OSError"
# isolation: sandbox
# Writing into the stdlib's directory is refused with a catchable error.
import os
try:
    with open(os.path.join(os.path.dirname(os.__file__), "evil.py"), "w") as f:
        f.write("x")
    result = "wrote"
except OSError as e:
    result = type(e).__name__
