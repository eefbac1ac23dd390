# expect: ok
# value: "done"
# deadline: 10s
# Flood stdout: capture truncates, the program finishes.
for i in range(200000):
    print('flood' * 20)
result = 'done'
