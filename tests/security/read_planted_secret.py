# expect: error PermissionError
# Read the secret file the host planted (its path is given).
result = open(inputs['secret_path']).read()
