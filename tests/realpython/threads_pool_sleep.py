# expect: ok
# value: [0, 1, 2, 3, 4, 5, 6, 7]
# tools: sleep
# Eight threads each waiting in a tool: the calls overlap on the host.
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=8) as pool:
    result = list(pool.map(lambda i: sleep(ms=50, value=i), range(8)))
