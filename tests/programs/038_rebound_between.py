# value: [7, 14]
x = 1
a = lookup(key=x)
x = 2
b = lookup(key=x)
result = [a, b]
