# expect: violation
# Fill the disk through an append-mode file.
f = open('/tmp/spine-fill', 'ab')
while True:
    f.write(b'x' * 1048576)
