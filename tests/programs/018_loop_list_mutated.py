# value: [7, 14, 21, 28, 35]
keys = [1, 2]
out = []
for k in keys:
    if k < 4:
        keys.append(k + 2)
    out.append(lookup(key=k))
result = out
