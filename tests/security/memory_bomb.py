# expect: memory
# Allocate far past the memory limit at once.
x = ' ' * (10 ** 10)
result = len(x)
