# expect: output_limit
# Flood the stdout descriptor directly, past the capture.
import os
while True:
    os.write(1, b'x' * 65536)
