# expect: error PermissionError
# Read the planted secret through posix.open, below io.
import os
fd = os.open(inputs['secret_path'], os.O_RDONLY)
result = os.read(fd, 100).decode()
