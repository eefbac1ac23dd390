# expect: ok
# value: ["ImportError", true]
# isolation: sandbox
# A program can catch the refusal and read why.
try:
    import socket
    result = "imported"
except ImportError as e:
    result = [type(e).__name__, "sandbox" in str(e)]
