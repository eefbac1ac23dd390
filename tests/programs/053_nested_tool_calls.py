# value: [49, {"v": 14, "w": {"x": 1}}]
r = lookup(key=lookup(key=1))
s = echo(v=lookup(key=2), w=echo(x=1))
result = [r, s]
