# expect: ok
# value: "ENOSPC"
# Fill the scratch directory with many files, each under the file-size
# limit: the tmpfs's own cap stops it with ENOSPC, which the program catches.
import errno
i = 0
try:
    while True:
        with open(f'f{i}', 'wb') as f:
            f.write(b'x' * 1048576)
        i += 1
except OSError as e:
    result = errno.errorcode[e.errno]
