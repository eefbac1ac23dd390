# expect: ok
# value: 315
# tools: lookup
# A lock protecting shared state updated from threads that call tools.
import threading
total = 0
lock = threading.Lock()
def add(k):
    global total
    v = lookup(key=k)
    with lock:
        total += v
ts = [threading.Thread(target=add, args=(k,)) for k in range(10)]
[t.start() for t in ts]
[t.join() for t in ts]
result = total
