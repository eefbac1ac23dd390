# expect: violation
# Spawn a shell with os.system.
import os
result = os.system('cat /etc/shadow')
