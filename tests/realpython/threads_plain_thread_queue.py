# expect: ok
# value: [[0, 0], [1, 7], [2, 14], [3, 21], [4, 28], [5, 35]]
# tools: lookup
# threading.Thread workers putting tool results on a queue.
import threading, queue
q = queue.Queue()
def work(k):
    q.put((k, lookup(key=k)))
threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
for t in threads: t.start()
for t in threads: t.join()
result = sorted(q.get() for _ in range(6))
