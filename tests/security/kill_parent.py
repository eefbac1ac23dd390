# expect: violation
# Signal the parent (the zygote).
import os
os.kill(os.getppid(), 9)
result = 1
