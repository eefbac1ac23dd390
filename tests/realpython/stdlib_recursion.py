# expect: ok
# value: [500, true]
# Recursion within the limit, and RecursionError caught beyond it.
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
def forever(n):
    return forever(n + 1)
try:
    forever(0)
except RecursionError:
    caught = True
result = [depth(500), caught]
