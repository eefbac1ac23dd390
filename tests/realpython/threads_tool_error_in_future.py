# expect: ok
# value: "worker failed"
# tools: fail
# A tool's error in a worker thread surfaces at future.result().
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(2) as pool:
    fut = pool.submit(fail, message="worker failed")
    try:
        fut.result()
    except RuntimeError as e:
        result = str(e)
