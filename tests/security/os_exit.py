# expect: crashed
# Leave without answering.
import os
os._exit(0)
