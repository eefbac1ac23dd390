# expect: error FileNotFoundError
# Read /etc/passwd.
# The child's root holds only the stdlib, so the path does not exist there;
# Landlock, behind it, would refuse the open (PermissionError).
result = open('/etc/passwd').read()
