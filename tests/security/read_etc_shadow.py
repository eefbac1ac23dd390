# expect: error
# Read the host's password hashes.
result = open('/etc/shadow').read()
