# expect: ok
# native: eager
# deadline: 30s
# value: []
# Guess where the module cache is instead of being told: list the temporary
# directory, where test suites and many services put it (and the host's
# other temporary files). The child's /tmp is its own scratch directory, a
# tmpfs slot of the sandbox that starts empty: nothing of the host's is there.
import os
def double(x: int) -> int:
    return x + x
double(3)
result = os.listdir('/tmp')
