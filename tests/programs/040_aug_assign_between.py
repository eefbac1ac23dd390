# value: [7, 21]
n = 1
a = lookup(key=n)
n += 2
b = lookup(key=n)
result = [a, b]
