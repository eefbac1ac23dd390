# expect: ok
# value: [70, 84, 98]
# tools: lookup
# A barrier between threads, each calling a tool before and after.
import threading
b = threading.Barrier(3)
out = []
lock = threading.Lock()
def work(k):
    a = lookup(key=k)
    b.wait()
    c = lookup(key=k + 10)
    with lock:
        out.append(a + c)
ts = [threading.Thread(target=work, args=(k,)) for k in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
result = sorted(out)
