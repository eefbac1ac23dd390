# expect: ok
# value: [1, "MainThread", true, 5, 1]
# isolation: sandbox
# The sandboxed program runs on its child's main thread, as under python3:
# the only thread before it starts any, and the only one after they end.
import threading
before = threading.active_count()
name = threading.current_thread().name
main = threading.current_thread() is threading.main_thread()
gate = threading.Event()
ts = [threading.Thread(target=gate.wait) for _ in range(4)]
[t.start() for t in ts]
during = threading.active_count()
gate.set()
[t.join() for t in ts]
result = [before, name, main, during, threading.active_count()]
