# value: [14, "Doc stays first."]
def f(n):
    """Doc stays first."""
    return lookup(key=n)
result = [f(2), f.__doc__]
