# expect: violation
# Send a result frame whose lengths do not add up.
import os, time
os.write(3, b'z' + (20).to_bytes(4, 'little') + bytes(4) + (999).to_bytes(4, 'little') + bytes(12))
time.sleep(5)
