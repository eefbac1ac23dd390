# expect: ok
# value: []
# Enumerate processes by probing /proc/N with stat (no listing needed). The
# child's /proc is a procfs of the sandbox's PID namespace that shows a
# process only those it may trace: no host PID, not the zygote, no sibling.
import os
me = os.getpid()
result = [n for n in range(1, 4097) if n != me and os.path.exists(f'/proc/{n}')]
