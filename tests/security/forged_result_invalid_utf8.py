# expect: violation
# deadline: 30s
# A hand-written result frame whose value is a string of raw bytes that are
# not UTF-8: JSON decoders would pass them on (or swap them for U+FFFD); the
# host refuses a response that is not valid UTF-8.
import os, time
response = b'{"value":"\xff\xfe\xc0\x80"}'
head = (0).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head + response)
time.sleep(5)
