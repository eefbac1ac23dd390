# expect: error
# Read /etc/passwd.
result = open('/etc/passwd').read()
