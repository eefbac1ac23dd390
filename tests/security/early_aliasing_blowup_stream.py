# expect: ok
# mode: stream
# value: 21000
# host-rss-mib: 64
# Lists nested by aliasing are small (4,000 references) but expand to 10**12
# elements. In a branch the stream's analysis cannot decide, it compared and
# printed them: a program that runs in milliseconds never finished
# streaming. Size guards must count shared parts once per place, and a
# statement past its budget starts nothing early.
total = 0
for i in range(3):
    a = [0] * 1000
    d = [[[a] * 1000] * 1000] * 1000
    a2 = [0] * 1000
    d2 = [[[a2] * 1000] * 1000] * 1000
    if lookup(key=0) > 5:
        total += (d == d2) + len(str(d)) + len(sorted([d, d2]))
    total += lookup(key=len(d))
result = total
