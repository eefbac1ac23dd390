# expect: error PermissionError
# Read the mount table through /proc/self/mounts to map the host's
# filesystems. Landlock grants no file of /proc: the child reads nothing
# there (a module it loads comes as a descriptor, opened by dlopen through
# a magic link that Landlock lets through only for in-memory files).
result = open('/proc/self/mounts').read()
