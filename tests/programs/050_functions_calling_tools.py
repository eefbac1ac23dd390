# value: [21, 35]
def pair(n):
    return lookup(key=n) + lookup(key=n + 1)
result = [pair(1), pair(2)]
