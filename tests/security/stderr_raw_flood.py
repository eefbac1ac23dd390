# expect: output_limit
# host-rss-mib: 64
# Flood the stderr descriptor directly, below Python's capture: the host
# stops the child rather than buffer what it writes.
import os
while True:
    os.write(2, b'e' * 65536)
