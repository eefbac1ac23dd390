# expect: ok
# value: "ImportError"
# isolation: sandbox
# A refused submodule inside an allowed package.
import http
try:
    from http import server
    result = "imported"
except ImportError as e:
    result = type(e).__name__
