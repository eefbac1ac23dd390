# value: -3
def lookup(key):
    return -key
result = lookup(key=3)
