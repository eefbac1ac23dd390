# expect: violation
# A crossing whose id is not the child's next one (ids go 1, 2, 3...): an
# id from nowhere ends the child before the host runs anything for it.
import os, time
req = b'{"tool":"echo","args":{"value":1}}'
os.write(3, b'c' + (16 + len(req)).to_bytes(4, 'little') + (77).to_bytes(8, 'little') + bytes(8) + req)
time.sleep(5)
