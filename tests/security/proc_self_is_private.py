# expect: ok
# value: [true, ["self", "thread-self"]]
# Tell whose /proc the child sees: the host's procfs resolves /proc/self to
# the child's PID in the host's namespace, and has system-wide files
# (/proc/meminfo, /proc/sys). The child's own procfs names its own PID and
# has nothing but processes (subset=pid).
import os
system_wide = [name for name in ('self', 'thread-self', 'meminfo', 'sys', 'kcore', 'mounts')
               if os.path.lexists('/proc/' + name)]
result = [os.readlink('/proc/self') == str(os.getpid()), system_wide]
