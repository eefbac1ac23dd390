# value: [[0, 0], [7, 49], [14, 98]]
out = []
for i in range(3):
    a = lookup(key=i)
    b = lookup(key=a)
    out.append([a, b])
result = out
