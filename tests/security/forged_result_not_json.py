# expect: violation
# deadline: 30s
# Send a well-formed result frame whose response is not JSON.
import os, time
body = b'not json'
head = bytes(4) + len(body).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(body)).to_bytes(4, 'little') + head + body)
time.sleep(5)
