# expect: error
# List the root directory.
import os
result = os.listdir('/')
