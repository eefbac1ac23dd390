# expect: error OSError
# Fill the disk through an append-mode file in /tmp: the scratch tmpfs is
# capped (16 MiB) and answers ENOSPC.
f = open('/tmp/spine-fill', 'ab')
while True:
    f.write(b'x' * 1048576)
    f.flush()
