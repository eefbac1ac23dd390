# expect: crashed
# Abort the interpreter.
import os
os.abort()
