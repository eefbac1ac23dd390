# expect: timeout
# mode: stream
# Calls started early while the program streams in, each holding an hour,
# then claimed by the program. The stream's execution ends at its deadline
# with every early call cancelled, and its child is released.
a = sleep(ms=3600000, value=1)
b = sleep(ms=3600000, value=2)
c = sleep(ms=3600000, value=3)
result = [a, b, c]
