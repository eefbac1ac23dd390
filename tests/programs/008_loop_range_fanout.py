# value: 70
total = 0
for i in range(5):
    total += lookup(key=i)
result = total
