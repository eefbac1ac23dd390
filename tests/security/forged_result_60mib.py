# expect: violation
# host-rss-mib: 64
# deadline: 30s
# The child owns its end of the channel: it writes a result frame of 60 MiB
# by hand (a value far past the 16 MiB result limit, which only bootstrap
# checked). The host reads no frame larger than the execution's result limits
# allow: it refuses the header before it allocates the payload.
import os, time
response = b'{"value":"' + b'x' * (60 << 20) + b'"}'
head = (0).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head)
view = memoryview(response)
while view:
    view = view[os.write(3, view[:1 << 20]):]
time.sleep(5)
