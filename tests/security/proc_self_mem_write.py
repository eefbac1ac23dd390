# expect: error PermissionError
# Open /proc/self/mem for writing (to patch the interpreter): opening for
# writing reaches the kernel now, and Landlock grants nothing in /proc.
f = open('/proc/self/mem', 'r+b')
result = 1
