# expect: error ValueError
# mode: stream
# Everything after a top-level `raise` is dead, yet the stream's analysis
# followed it: here a comparison of two aliased lists that expand to 10**12
# elements. The program must end with its own ValueError, not a limit.
a = [0] * 1000
b = [[[a] * 1000] * 1000] * 1000
a2 = [0] * 1000
b2 = [[[a2] * 1000] * 1000] * 1000
raise ValueError
same = b == b2
lookup(key=len(b))
