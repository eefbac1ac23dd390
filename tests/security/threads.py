# expect: violation
# Start a thread (clone) past the import blocker.
import sys
sys.meta_path = [m for m in sys.meta_path if 'Blocker' not in repr(m)]
import _thread
_thread.start_new_thread(print, ('hi',))
result = 1
