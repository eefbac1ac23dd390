# expect: error PermissionError
# Read the host's password hashes.
result = open('/etc/shadow').read()
