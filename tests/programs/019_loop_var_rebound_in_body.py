# value: [70, 140]
out = []
for k in [1, 2]:
    k = k * 10
    out.append(lookup(key=k))
result = out
