# expect: ok-no-secret
# Dump the environment: it must hold nothing of the host's.
import os
result = dict(os.environ)
