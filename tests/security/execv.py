# expect: violation
# Replace the process with a shell.
import os
os.execv('/bin/sh', ['sh', '-c', 'id'])
