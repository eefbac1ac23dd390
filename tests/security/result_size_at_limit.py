# expect: ok
# deadline: 10s
# The largest result the default ResultBytes (16 MiB) allows: a string of
# 2**24 - 2 characters encodes to exactly 2**24 bytes. It must come back
# whole, so the size limit is not stricter than documented either.
result = 'x' * ((16 << 20) - 2)
