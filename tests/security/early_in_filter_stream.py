# expect: ok
# mode: stream
# value: [7, 7, [7], 4]
# `in` on a filter whose predicate calls emit, fed in small chunks: neither
# the stream's analysis nor the final PLM execution may evaluate the
# membership test early, or emit runs before its time and the filter is
# consumed twice.
ys = filter(lambda v: emit(value=v) > 1, [5, 6, 7])
a = lookup(key=1)
b = lookup(key=1 if 6 in ys else 0)
result = [a, b, list(ys), emit(value='end')]
