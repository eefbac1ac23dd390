# expect: error FileNotFoundError
# Read the secret file the host planted (its path is given).
# The child's root holds only the stdlib, so the path does not exist there;
# Landlock, behind it, would refuse the open (PermissionError).
result = open(inputs['secret_path']).read()
