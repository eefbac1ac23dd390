# value: "none"
for k in []:
    x = lookup(key=k)
for i in range(0):
    x = fail(message="never")
result = "none"
