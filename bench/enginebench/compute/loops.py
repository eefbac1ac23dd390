# Integer arithmetic in nested loops: the eval loop and small ints.
def work():
    total = 0
    for i in range(300):
        for j in range(300):
            total += (i * j) % 7 - (i ^ j) & 3
    return total
