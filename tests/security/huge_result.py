# expect: limit
# Return a result over the result size limit.
result = 'x' * (64 << 20)
