# expect: ok
# value: [0, 7, 14, 21]
# tools: lookup
# A Condition hands tool results from producer threads to a consumer.
import threading
cond = threading.Condition()
items = []
def produce(k):
    v = lookup(key=k)
    with cond:
        items.append(v)
        cond.notify()
ts = [threading.Thread(target=produce, args=(k,)) for k in range(4)]
[t.start() for t in ts]
with cond:
    cond.wait_for(lambda: len(items) == 4, timeout=10)
[t.join() for t in ts]
result = sorted(items)
