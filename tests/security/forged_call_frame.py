# expect: ok
# value: "{\"error\":\"unknown tool \\\"exfiltrate\\\"\"}"
# Write a call frame for an unlisted tool on fd 3 (crossing id 1: the
# program's first crossing) and read the host's answer, which carries the
# same id.
import os
req = b'{"tool":"exfiltrate","args":{}}'
os.write(3, b'c' + (16 + len(req)).to_bytes(4, 'little') + (1).to_bytes(8, 'little') + bytes(8) + req)
head = os.read(3, 5)
body = os.read(3, int.from_bytes(head[1:], 'little'))
assert int.from_bytes(body[:8], 'little') == 1
result = body[17:].decode()
assert 'unknown tool' in result
