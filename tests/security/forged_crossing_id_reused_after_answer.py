# expect: violation
# A real tool call takes crossing id 1; a hand-written frame that reuses
# id 1 once it was answered is a breach too: an id never comes back.
import os, time
echo(value=1)
req = b'{"tool":"echo","args":{"value":2}}'
os.write(3, b'c' + (16 + len(req)).to_bytes(4, 'little') + (1).to_bytes(8, 'little') + bytes(8) + req)
time.sleep(5)
