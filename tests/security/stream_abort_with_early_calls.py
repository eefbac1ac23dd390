# expect: crashed
# mode: stream
# The streamed program's child aborts (SIGABRT) while calls started early
# wait for an hour. The crash is reported at once, the early calls are
# cancelled (never claimed), and the child's slot is freed.
import os
os.abort()
a = sleep(ms=3600000, value=1)
b = sleep(ms=3600000, value=2)
result = [a, b]
