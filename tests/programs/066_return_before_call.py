# value: [7, "big"]
def f(n):
    if n > 1:
        return "big"
    return lookup(key=n)
result = [f(1), f(5)]
