# expect: ok
# value: [[0, 499500, 1999000, 4498500], 1, "MainThread"]
# threads without tools: same answer as CPython.
import threading
results = [0] * 4
def work(i):
    results[i] = sum(range(i * 1000))
ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
result = [results, threading.active_count(), threading.current_thread().name]
