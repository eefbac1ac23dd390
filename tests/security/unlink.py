# expect: error OSError
# Delete a stdlib file other executions import: read-only mount (EROFS).
import os
os.unlink('/usr/lib/python3.11/os.py')
result = 1
