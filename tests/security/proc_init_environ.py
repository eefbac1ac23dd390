# expect: error FileNotFoundError
# Read another process's environment through /proc/1/environ (PID 1 is the
# zygote in the sandbox's PID namespace, the host's init in the host's). The
# child's private /proc does not show PID 1 at all (hidepid=ptraceable: the
# zygote is non-dumpable), so there is nothing to open.
result = open('/proc/1/environ', 'rb').read().decode()
