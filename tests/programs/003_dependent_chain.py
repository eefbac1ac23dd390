# value: {"a": 7, "b": 49, "c": 343}
a = lookup(key=1)
b = lookup(key=a)
c = lookup(key=b)
result = {"a": a, "b": b, "c": c}
