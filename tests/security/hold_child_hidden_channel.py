# expect: crashed
# Hide the channel to the host (dup it, close fd 3) and spin, so the child
# can neither be asked nor answer. The deadline's interrupt stops the spin,
# the result cannot be sent, and the child exits without answering: the
# host reports the crash at the deadline rather than waiting on a channel
# the program took away.
import os
fd = os.dup(3)
os.close(3)
while True:
    pass
