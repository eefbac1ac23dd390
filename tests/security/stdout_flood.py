# expect: ok
# value: "done"
# Flood stdout: capture truncates, the program finishes.
for i in range(200000):
    print('flood' * 20)
result = 'done'
