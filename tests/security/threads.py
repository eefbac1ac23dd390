# expect: ok
# value: 1
# Start a thread with _thread directly, past the threading module: threads
# of the child are allowed (clone with CLONE_THREAD).
import _thread
done = _thread.allocate_lock()
done.acquire()
_thread.start_new_thread(done.release, ())
done.acquire()
result = 1
