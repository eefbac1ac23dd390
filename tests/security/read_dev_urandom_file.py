# expect: error PermissionError
# Open a device node.
result = open('/dev/urandom', 'rb').read(4).hex()
