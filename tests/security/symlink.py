# expect: violation
# Plant a symlink.
import os
os.symlink('/etc/shadow', '/tmp/spine-link')
result = 1
