# expect: ok
# value: [["v", "w"], ["t"]]
# ExceptionGroup and except*.
try:
    raise ExceptionGroup("many", [ValueError("v"), TypeError("t"), ValueError("w")])
except* ValueError as eg:
    values = sorted(str(e) for e in eg.exceptions)
except* TypeError as eg:
    types = [str(e) for e in eg.exceptions]
result = [values, types]
