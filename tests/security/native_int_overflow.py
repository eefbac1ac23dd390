# expect: ok
# native: eager
# value: [1000000000000000000000000, "NativeFunction"]
# deadline: 20s
# Push a natively compiled int function past 64 bits: the result must be
# Python's exact integer, never a value wrapped around in machine arithmetic.
def f(n: int) -> int:
    return n * n * n * n

result = [f(10**6), type(f).__name__]
