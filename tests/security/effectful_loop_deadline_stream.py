# expect: timeout
# mode: stream
# deadline: 1s
# The effectful loop again, arriving in 7-byte chunks: the prefix analysis
# must not start emit early, and the deadline still ends the run as a
# timeout (work between calls keeps it under the tool-call limit).
n = 0
while True:
    n = emit(value=n)
    for _ in range(20000):
        pass
