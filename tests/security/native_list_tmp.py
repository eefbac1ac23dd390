# expect: error FileNotFoundError
# native: eager
# deadline: 30s
# Guess where the module cache is instead of being told: list the temporary
# directory, where test suites and many services put it (and the host's
# other temporary files). The child's root has no /tmp: it holds only the
# stdlib and a private /proc.
import os
def double(x: int) -> int:
    return x + x
double(3)
result = os.listdir('/tmp')
