# expect: error PermissionError
# Read /etc/passwd.
result = open('/etc/passwd').read()
