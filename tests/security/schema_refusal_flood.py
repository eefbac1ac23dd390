# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Calls a known tool with arguments its schema refuses (a 4 KiB key and a
# property it does not have) for as long as it is let, ignoring every
# refusal. Calls refused for their arguments count against the tool call
# limit and are traced with a short prefix only, so the loop ends with
# `limit` within bounded memory.
import _spine

request = '{"tool": "lookup", "args": {"extra": 1, "key": "' + "k" * 4096 + '"}}'
while True:
    _spine.call(request)
