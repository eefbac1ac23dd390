# value: {"keys": [4, 5, 6], "got": [28, 35, 42]}
keys = [4, 5, 6]
got = []
for k in keys:
    got.append(lookup(key=k))
result = {"keys": keys, "got": got}
