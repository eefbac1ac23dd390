# expect: ok
# value: [0, 7, 14, 21, 28]
# tools: lookup
# threading.local keeps each thread's tool result apart.
import threading
local = threading.local()
out = {}
def work(k):
    local.v = lookup(key=k)
    out[k] = local.v
ts = [threading.Thread(target=work, args=(k,)) for k in range(5)]
[t.start() for t in ts]
[t.join() for t in ts]
result = [out[k] for k in range(5)]
