# expect: error PermissionError
# Escape the readable stdlib tree with '..'.
result = open('/usr/lib/python3.11/../../../etc/hostname').read()
