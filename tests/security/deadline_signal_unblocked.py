# expect: timeout
# Remove the import blocker, load signal from the stdlib, restore SIGALRM's
# default action (terminate) and spin: the deadline still ends it, as a timeout.
import sys
sys.meta_path[:] = [f for f in sys.meta_path if 'Blocker' not in type(f).__name__ and 'Blocker' not in getattr(f, '__name__', '')]
import signal
signal.signal(signal.SIGALRM, signal.SIG_DFL)
while True:
    pass
