# expect: error FileNotFoundError
# Escape the readable stdlib tree with '..'.
# The child's root holds only the stdlib, so the path does not exist there;
# Landlock, behind it, would refuse the open (PermissionError).
result = open('/usr/lib/python3.11/../../../etc/hostname').read()
