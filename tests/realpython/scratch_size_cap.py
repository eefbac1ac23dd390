# expect: ok
# value: "ENOSPC"
# isolation: sandbox
# The scratch directory is size-capped: filling it raises a catchable OSError.
import errno
try:
    with open("big.bin", "wb") as f:
        for _ in range(64):
            f.write(b"\0" * (1 << 20))
    result = "wrote 64 MiB"
except OSError as e:
    result = errno.errorcode.get(e.errno, str(e.errno))
