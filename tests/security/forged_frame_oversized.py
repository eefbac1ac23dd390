# expect: violation
# Announce a 2 GiB frame on the host channel.
import os, time
os.write(3, b'c' + (2 ** 31).to_bytes(4, 'little'))
time.sleep(5)
