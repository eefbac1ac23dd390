# inputs: {"item": 3}
# value: {"x": 21}
x = lookup(key=inputs["item"])
result = {"x": x}
