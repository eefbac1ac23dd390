# value: 343
a = await lookup(key=1)
b = await lookup(key=a)
result = await lookup(key=b)
