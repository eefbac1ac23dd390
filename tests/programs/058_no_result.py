# value: null
x = lookup(key=1)
y = echo(v=x)
