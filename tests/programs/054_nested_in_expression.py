# value: [8, "14!", 21]
x = [lookup(key=1)][0] + 1
y = str(lookup(key=2)) + "!"
z = lookup(key=3) if x > 0 else fail(message="no")
result = [x, y, z]
