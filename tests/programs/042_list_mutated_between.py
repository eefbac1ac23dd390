# value: [{"rows": [1]}, {"rows": [1, 2]}]
rows = [1]
a = echo(rows=rows)
rows.append(2)
b = echo(rows=rows)
result = [a, b]
