# value: [7, 14, 21]
rows = []
for k in [1, 2, 3]:
    rows.append(lookup(key=k))
result = rows
