# expect: limit
# deadline: 10s
# A result whose encoding is exactly one byte over the default ResultBytes
# (16 MiB): a string of 2**24 - 1 characters encodes to 2**24 + 1 bytes with
# its quotes. Off-by-one in the size check would let it through.
result = 'x' * ((16 << 20) - 1)
