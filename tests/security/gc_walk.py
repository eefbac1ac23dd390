# expect: violation
# Find the os module through gc (or sys.modules when gc is refused) and run a shell.
import sys
try:
    import gc
    os_mod = [o for o in gc.get_objects() if getattr(o, '__name__', None) == 'os'][0]
except ImportError:
    os_mod = sys.modules['os']
os_mod.system('id')
result = 1
