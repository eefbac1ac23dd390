# expect: violation
# deadline: 30s
# A hand-written result frame whose value is a list nested 9,000 deep (the
# result depth limit is 100). The host scans the nesting itself, without
# recursion, before it decodes anything.
import os, time
response = b'{"value":' + b'[' * 9000 + b']' * 9000 + b'}'
head = (0).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head + response)
time.sleep(5)
