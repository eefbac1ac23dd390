# expect: timeout
# deadline: 2s
# host-rss-mib: 64
# Threads' crossings are answered at once, but a child cannot make the host
# hold more than 64 of them (4 MiB of requests): write 300 call frames of
# 16 KiB, ids in order, and never read an answer. The host stops reading
# the channel at its bound, the child's write blocks, and the deadline ends
# it; the host's memory stays bounded throughout.
import os
arg = b'{"args":{"v":"' + b'x' * 16000 + b'"},"tool":"echo"}'
frames = b''.join(b'c' + (16 + len(arg)).to_bytes(4, 'little') + i.to_bytes(8, 'little') + bytes(8) + arg
                  for i in range(1, 301))
os.write(3, frames)
import time
time.sleep(10)
