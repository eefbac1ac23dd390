# expect: error PermissionError
# List the root directory.
import os
result = os.listdir('/')
