# expect: ok
# value: [1, 2, 3, 4, 5, 6]
# tools: emit
# Effectful calls from threads run exactly once each.
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(4) as pool:
    lengths = sorted(pool.map(lambda i: emit(value=i), range(6)))
result = lengths
