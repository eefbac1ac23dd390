# expect: ok
# value: [[0, 499500, 1999000, 4498500], [true, true, true, true]]
# threads without tools: same answer as CPython.
import threading
results = [0] * 4
def work(i):
    results[i] = sum(range(i * 1000))
ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
result = [results, [not t.is_alive() for t in ts]]
