# expect: ok
# value: "FileNotFoundError"
# isolation: sandbox
# Writing outside the scratch directory raises a catchable OSError, never a kill.
try:
    with open("/etc/spine-test", "w") as f:
        f.write("x")
    result = "wrote"
except OSError as e:
    result = type(e).__name__
