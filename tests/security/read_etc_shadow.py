# expect: error FileNotFoundError
# Read the host's password hashes.
# The child's root holds only the stdlib, so the path does not exist there;
# Landlock, behind it, would refuse the open (PermissionError).
result = open('/etc/shadow').read()
