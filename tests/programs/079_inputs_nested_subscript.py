# inputs: {"cfg": {"n": 2}, "items": [1, 2, 3]}
# value: [14, {"first": 1, "rest": [2, 3]}]
a = lookup(key=inputs["cfg"]["n"])
b = echo(first=inputs["items"][0], rest=inputs["items"][1:])
result = [a, b]
