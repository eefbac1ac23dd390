# expect: violation
# asyncio is importable and keeps its own reference to the socket module:
# reach for an AF_INET socket through it. The seccomp filter allows only
# socketpair(AF_UNIX) (the event loop's self-pipe); socket() itself kills.
import asyncio
sock = asyncio.base_events.socket
s = sock.socket(sock.AF_INET, sock.SOCK_STREAM)
s.connect(('127.0.0.1', 22))
result = 1
