# expect: ok
# value: [0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77]
# tools: lookup
# ThreadPoolExecutor.map over a tool.
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=4) as pool:
    result = list(pool.map(lambda k: lookup(key=k), range(12)))
