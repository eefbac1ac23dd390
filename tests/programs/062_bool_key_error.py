# value: "lookup: key must be an integer"
try:
    lookup(key=True)
except RuntimeError as e:
    result = str(e)
