# expect: violation
# Create a directory.
import os
os.mkdir('/tmp/spine-dir')
result = 1
