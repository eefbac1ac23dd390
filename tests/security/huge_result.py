# expect: limit
# deadline: 10s
# Return a result over the result size limit.
result = 'x' * (64 << 20)
