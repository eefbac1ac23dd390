# expect: timeout
# mode: stream
# The streamed program's child stops itself (SIGSTOP) while calls it started
# early are still running. The host kills the child at the deadline plus the
# grace, cancels the early calls, and releases the child's slot.
import os
os.kill(os.getpid(), 19)
a = sleep(ms=3600000, value=1)
b = sleep(ms=3600000, value=2)
result = [a, b]
