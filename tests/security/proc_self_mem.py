# expect: error PermissionError
# Read the process's own memory through /proc/self/mem.
result = open('/proc/self/mem', 'rb').read(1)
