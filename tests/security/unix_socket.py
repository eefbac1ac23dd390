# expect: violation
# Connect to a UNIX socket.
import sys
sys.meta_path = [m for m in sys.meta_path if 'Blocker' not in repr(m)]
import _socket
s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
s.connect('/run/systemd/private')
result = 1
