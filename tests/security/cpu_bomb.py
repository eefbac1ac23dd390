# expect: timeout
# Spin forever in bytecode.
while True:
    pass
