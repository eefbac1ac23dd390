# expect: timeout
# deadline: 5s
# host-rss-mib: 64
# Sends sixteen tool requests of 48 MiB, far over the 1 MiB argument limit
# but within the sandbox's frame limit, then spins until its deadline. Each
# request is refused; the host must skip it unread rather than hold 48 MiB
# per request (the child's memory is its own, the host's is everyone's), so
# the host's memory stays flat and the program ends at its deadline.
import _spine

request = '{"tool": "echo", "args": {"x": "' + "a" * (48 << 20) + '"}}'
for _ in range(16):
    _spine.call(request)
while True:
    pass
