# expect: error PermissionError
# List a directory next to the stdlib.
import os
result = os.listdir('/usr/lib')
