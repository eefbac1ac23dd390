# expect: ok
# mode: plm
# value: 200000
# deadline: 10s
# Flood stdout from a loop PLM rewrites around speculative calls: truncation
# applies the same, and the result is exact.
n = 0
for i in range(200000):
    print('flood' * 20)
    n += 1
result = n
