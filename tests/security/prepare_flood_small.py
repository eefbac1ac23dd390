# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Prepares tiny calls (and calls to a tool that does not exist, which the
# host refuses to start) as fast as it can, never claiming one. Each prepare
# is a tool call whether it starts or not: past the tool call limit the
# program is stopped with `limit` instead of piling up pending calls, and
# their goroutines, until the deadline.
import _spine

i = 0
while True:
    _spine.prepare('{"tool": "lookup", "args": {"key": %d}}' % i)
    _spine.prepare('{"tool": "nope", "args": {"key": %d}}' % i)
    i += 1
