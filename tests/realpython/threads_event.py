# expect: ok
# value: [true]
# tools: echo
# A thread waits on an Event set by the main thread after a tool call.
import threading
ready = threading.Event()
got = []
def waiter():
    ready.wait(5)
    got.append(echo(seen=True)["seen"])
t = threading.Thread(target=waiter)
t.start()
echo(x=1)
ready.set()
t.join()
result = got
