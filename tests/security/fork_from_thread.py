# expect: violation
# Fork from inside a thread: a clone without CLONE_THREAD kills the child
# whichever thread asks for it.
import os, threading
t = threading.Thread(target=os.fork)
t.start()
t.join()
result = 1
