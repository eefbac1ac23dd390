# expect: ok
# value: [0, 1, 2, 3, 4]
# tools: echo
# concurrent.futures.as_completed over submitted tool calls.
from concurrent.futures import ThreadPoolExecutor, as_completed
with ThreadPoolExecutor(4) as pool:
    futures = [pool.submit(echo, n=i) for i in range(5)]
    result = sorted(f.result()["n"] for f in as_completed(futures))
