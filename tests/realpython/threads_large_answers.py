# expect: ok
# value: true
# tools: echo
# Threads each get their own large answer back.
from concurrent.futures import ThreadPoolExecutor
def own(k):
    s = str(k) * 100000
    return echo(v=s)["v"] == s
with ThreadPoolExecutor(6) as pool:
    result = all(pool.map(own, range(6)))
