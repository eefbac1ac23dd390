# expect: error FileNotFoundError
# Open a device node.
# The child's root holds only the stdlib, so the path does not exist there;
# Landlock, behind it, would refuse the open (PermissionError).
result = open('/dev/urandom', 'rb').read(4).hex()
