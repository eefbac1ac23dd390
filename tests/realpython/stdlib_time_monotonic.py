# expect: ok
# value: [true, "1970-01-01", true]
# time: monotonic clocks advance, struct_time formatting.
import time
a = time.perf_counter()
time.sleep(0.01)
b = time.perf_counter()
result = [b > a, time.strftime("%Y-%m-%d", time.gmtime(0)), time.monotonic_ns() > 0]
