# value: [{"x": 1}, 200]
a = echo(x=1)
lookup = lambda key: key * 100
result = [a, lookup(key=2)]
