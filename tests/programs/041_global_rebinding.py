# value: [14, 70]
x = 1
def bump():
    global x
    x = 10
a = lookup(key=2)
bump()
b = lookup(key=x)
result = [a, b]
