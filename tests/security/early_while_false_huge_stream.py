# expect: ok
# mode: stream
# value: 7000
# host-rss-mib: 64
# A `while False:` body the program never runs compares two lists that are
# tiny in memory (4,000 references each, nested by aliasing) but expand to
# 10**12 elements: hours of work in one C call. The stream's analysis
# followed such bodies; code that cannot run must never be evaluated.
a = [0] * 1000
b = [[[a] * 1000] * 1000] * 1000
a2 = [0] * 1000
b2 = [[[a2] * 1000] * 1000] * 1000
while False:
    same = b == b2
    t = lookup(key=len(str(b)))
result = lookup(key=len(b))
