# value: ["lookup: key must be an integer", 42]
try:
    lookup(key="bad")
except RuntimeError as e:
    first = str(e)
second = lookup(key=6)
result = [first, second]
