# expect: crashed
# Send itself SIGSEGV.
import os
os.kill(os.getpid(), 11)
