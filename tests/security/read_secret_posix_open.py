# expect: error FileNotFoundError
# Read the planted secret through posix.open, below io.
# The child's root holds only the stdlib, so the path does not exist there;
# Landlock, behind it, would refuse the open (PermissionError).
import os
fd = os.open(inputs['secret_path'], os.O_RDONLY)
result = os.read(fd, 100).decode()
