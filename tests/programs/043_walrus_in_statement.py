# value: [4, 28, 16]
if (n := 4) > 3:
    r = lookup(key=n)
result = [n, r, lookup(key=(m := 2)) + m]
