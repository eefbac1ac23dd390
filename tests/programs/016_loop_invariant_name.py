# value: [70, 77, 84]
base = 10
vals = []
for i in range(3):
    vals.append(lookup(key=base + i))
result = vals
