# value: [21, 7, 343]
a = lookup(key=3)
b = lookup(key=a - 20)
c = lookup(key=a * 2 + b)
result = [a, b, c]
