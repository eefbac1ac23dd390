# value: 840
def fact(n):
    return 1 if n == 0 else n * fact(n - 1)
result = lookup(key=fact(5))
