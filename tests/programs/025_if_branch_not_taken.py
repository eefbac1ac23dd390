# inputs: {"flag": false}
# value: 14
if inputs["flag"]:
    x = fail(message="never reached")
else:
    x = lookup(key=2)
result = x
