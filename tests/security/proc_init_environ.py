# expect: error PermissionError
# Read another process's environment through /proc.
result = open('/proc/1/environ', 'rb').read().decode()
