# value: [7, 14, 21]
a = lookup(key=1)
b = lookup(key=2)
c = lookup(key=3)
result = [a, b, c]
