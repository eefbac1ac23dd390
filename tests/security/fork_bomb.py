# expect: violation
# Fork bomb.
import os
while True:
    os.fork()
