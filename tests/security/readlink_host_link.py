# expect: error FileNotFoundError
# Read where a host symlink points without opening anything (readlink is not
# governed by Landlock): /proc/1/cwd of the PID namespace's init. In the
# child's private /proc, PID 1 (the zygote, non-dumpable) does not exist.
import os
result = os.readlink('/proc/1/cwd')
