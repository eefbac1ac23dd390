# expect: violation
# Signal every process it can.
import os
os.kill(-1, 9)
result = 1
