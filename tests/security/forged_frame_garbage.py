# expect: violation
# Write garbage on the host channel (fd 3).
import os, time
os.write(3, b'\xffgarbage-garbage-garbage')
time.sleep(5)
