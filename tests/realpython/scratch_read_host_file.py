# expect: ok
# value: "FileNotFoundError"
# isolation: sandbox
# Host files outside the sandbox's root are not there to read.
try:
    open("/etc/passwd").read()
    result = "read"
except OSError as e:
    result = type(e).__name__
