# expect: violation
# Open /proc/self/mem for writing (to patch the interpreter).
f = open('/proc/self/mem', 'r+b')
result = 1
