# expect: error OSError
# Create a directory outside the scratch directory: the root is a read-only
# tmpfs (EROFS), a catchable error and not a kill.
import os
os.mkdir('/spine-dir')
result = 1
