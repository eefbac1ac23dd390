# expect: violation
# Create a file.
open('/tmp/spine-pwned', 'w').write('x')
result = 1
