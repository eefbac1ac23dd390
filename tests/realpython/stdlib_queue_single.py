# expect: ok
# value: [[2, 1, 3], [1, 2, 3], true]
# queue in a single thread: LifoQueue and PriorityQueue.
import queue
lq = queue.LifoQueue()
pq = queue.PriorityQueue()
for x in [3, 1, 2]:
    lq.put(x)
    pq.put(x)
try:
    queue.Queue().get_nowait()
except queue.Empty:
    empty = True
result = [[lq.get() for _ in range(3)], [pq.get() for _ in range(3)], empty]
