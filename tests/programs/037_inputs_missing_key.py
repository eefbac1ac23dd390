# inputs: {"item": 1}
# error: KeyError: 'missing'
a = lookup(key=1)
b = lookup(key=inputs["missing"])
