# value: 42
def outer():
    base = 3
    def inner():
        return lookup(key=base)
    return inner() + lookup(key=base)
result = outer()
