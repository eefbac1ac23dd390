# inputs: {"flag": true}
# value: 35
x = 1
if inputs["flag"]:
    x = 5
b = lookup(key=x)
result = b
