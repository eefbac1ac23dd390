# expect: memory
# deadline: 20s
# Grow memory step by step past the limit.
chunks = []
while True:
    chunks.append(bytearray(8 << 20))
