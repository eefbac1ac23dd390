# expect: ok
# value: "{\"error\":\"unknown tool \\\"exfiltrate\\\"\"}"
# Write a call frame for an unlisted tool on fd 3 and read the host's answer.
import os
req = b'{"tool":"exfiltrate","args":{}}'
os.write(3, b'c' + (8 + len(req)).to_bytes(4, 'little') + bytes(8) + req)
head = os.read(3, 5)
body = os.read(3, int.from_bytes(head[1:], 'little'))
result = body[9:].decode()
assert 'unknown tool' in result
