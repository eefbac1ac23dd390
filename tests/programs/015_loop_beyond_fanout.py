# value: 34650
total = 0
for i in range(100):
    total += lookup(key=i)
result = total
