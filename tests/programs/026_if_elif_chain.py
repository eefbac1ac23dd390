# inputs: {"n": 0}
# value: {"zero": true}
n = inputs["n"]
if n < 0:
    r = lookup(key=-1)
elif n == 0:
    r = echo(zero=True)
else:
    r = lookup(key=n)
result = r
