# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Calls a tool that is not in the manifest, with 4 KiB of arguments, in a
# loop that swallows every refusal, for as long as it is let. A refused call
# must count against the tool call limit (so the loop ends with `limit`, not
# at the deadline) and be traced with at most 256 bytes of what was sent;
# otherwise the host keeps every request in full and grows without bound.
import _spine

request = '{"tool": "no_such_tool", "args": {"x": "' + "a" * 4096 + '"}}'
while True:
    try:
        _spine.call(request)
    except BaseException:
        pass
