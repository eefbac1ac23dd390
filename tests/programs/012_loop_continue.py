# value: [0, 14, 28]
acc = []
for i in range(6):
    if i % 2:
        continue
    acc.append(lookup(key=i))
result = acc
