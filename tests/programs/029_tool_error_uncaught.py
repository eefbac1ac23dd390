# error: RuntimeError: lookup: key must be an integer
x = lookup(key=2)
y = lookup(key="a")
result = x
