# expect: ok
# value: [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]
# concurrent.futures without tools.
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(3) as pool:
    result = list(pool.map(lambda n: n * n, range(10)))
