# value: [[0, 7, 14], [70, 77, 84]]
grid = []
for i in range(2):
    row = []
    for j in range(3):
        row.append(lookup(key=i * 10 + j))
    grid.append(row)
result = grid
