# expect: ok
# value: "x"
# Create a file in /tmp: it is the execution's own scratch directory (a
# tmpfs slot of the sandbox, emptied when the execution ends), so it works
# and reaches nothing of the host's.
open('/tmp/spine-pwned', 'w').write('x')
result = open('/tmp/spine-pwned').read()
