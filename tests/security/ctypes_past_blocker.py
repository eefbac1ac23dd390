# expect: error PermissionError
# Drop the import blocker and import ctypes anyway (its files are unreadable).
import sys
sys.meta_path = [m for m in sys.meta_path if 'Blocker' not in repr(m)]
import ctypes
result = 1
