# value: [7, ["a", "echo", "emit", "fail", "inputs", "lookup", "sleep"]]
a = lookup(key=1)
names = sorted(n for n in dir() if not n.startswith("__"))
result = [a, names]
