# value: true
a = lookup(key=4)
b = lookup(key=4)
result = a is b or a == b
