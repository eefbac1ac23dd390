# value: {"done": true}
for k in [1, 2, 3]:
    if lookup(key=k) == 100:
        break
else:
    k = echo(done=True)
result = k
