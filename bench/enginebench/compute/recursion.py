# A recursive function: calls and frames.
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def work():
    return fib(23)
