# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Prepares calls to a speculative tool, each with 16 KiB of arguments, and
# never claims one. A pending prepared call holds its arguments and, once
# the tool returned, its response in the host: the execution's host memory
# budget stops new ones from starting once it is full, and every prepare,
# started or not, counts against the tool call limit, so the flood ends
# with `limit` instead of holding memory and goroutines until the deadline.
import _spine

filler = "a" * 16384
i = 0
while True:
    _spine.prepare('{"tool": "echo", "args": {"n": %d, "x": "%s"}}' % (i, filler))
    i += 1
