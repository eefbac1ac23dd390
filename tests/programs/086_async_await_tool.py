# value: 21
result = await lookup(key=3)
