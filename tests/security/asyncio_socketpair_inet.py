# expect: violation
# socketpair is allowed for the event loop's self-pipe, with AF_UNIX only:
# ask it for an AF_INET pair instead (the filter checks the family).
import asyncio
sock = asyncio.base_events.socket
a, b = sock.socketpair(sock.AF_INET, sock.SOCK_STREAM)
result = 1
