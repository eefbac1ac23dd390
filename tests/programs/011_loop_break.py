# value: [3, 21]
for i in range(10):
    v = lookup(key=i)
    if v > 20:
        break
result = [i, v]
