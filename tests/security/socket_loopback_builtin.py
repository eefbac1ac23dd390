# expect: violation
# Drop the import blocker and open a TCP socket to loopback with the builtin _socket.
import sys
sys.meta_path = [m for m in sys.meta_path if 'Blocker' not in repr(m)]
import _socket
s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
s.connect(('127.0.0.1', 22))
result = 1
