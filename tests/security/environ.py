# expect: ok
# value: {"LC_ALL": "C.UTF-8"}
# Dump the environment: it must hold nothing of the host's.
import os
result = dict(os.environ)
