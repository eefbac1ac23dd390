# value: [21, 49]
out = []
for a, b in [(1, 2), (3, 4)]:
    out.append(lookup(key=a + b))
result = out
