# value: [0, 7, 14]
i = 0
acc = []
while i < 3:
    acc.append(lookup(key=i))
    i += 1
result = acc
