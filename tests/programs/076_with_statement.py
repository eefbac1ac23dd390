# value: [21, 28]
import contextlib
with contextlib.nullcontext(3) as n:
    a = lookup(key=n)
    b = lookup(key=4)
result = [a, b]
