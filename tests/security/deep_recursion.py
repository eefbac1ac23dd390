# expect: error RecursionError
# Unbounded recursion.
def f(n):
    return f(n + 1)
result = f(0)
