# expect: violation
# Delete a host file.
import os
os.unlink('/etc/hostname')
result = 1
