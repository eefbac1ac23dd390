# expect: error PermissionError
# Import socket to reach the network, past the import blocker (a program can
# drop it from sys.meta_path). Landlock leaves socket.py and its compiled
# bytecode in __pycache__ unreadable, so the import itself fails; were it to
# load, creating a socket would be killed by seccomp (violation).
import sys
sys.meta_path = [m for m in sys.meta_path if 'Blocker' not in repr(m)]
import socket
s = socket.create_connection(('127.0.0.1', 22))
result = 1
