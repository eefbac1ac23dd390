# expect: violation
# Spawn a shell with posix_spawn.
import os
result = os.posix_spawn('/bin/sh', ['sh', '-c', 'id'], {})
