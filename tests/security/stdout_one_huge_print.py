# expect: ok
# value: "printed"
# host-rss-mib: 64
# deadline: 10s
# One print of 64 MiB in a single call: the capture keeps its limit's worth
# and drops the rest; the host never holds the whole of it.
print('x' * (64 << 20))
result = 'printed'
