# expect: error RuntimeError
# Start threads without end: each stack is mapped memory, so the child's
# RLIMIT_AS stops it: "can't start new thread", an error it could catch.
import threading
stop = threading.Event()
threads = []
while True:
    t = threading.Thread(target=stop.wait)
    t.start()
    threads.append(t)
