# expect: error ImportError
# Import socket to reach the network.
import socket
s = socket.create_connection(('127.0.0.1', 22))
result = 1
