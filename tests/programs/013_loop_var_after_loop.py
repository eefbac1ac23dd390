# value: {"k": 2, "last": 14}
for k in [1, 2]:
    last = lookup(key=k)
result = {"k": k, "last": last}
