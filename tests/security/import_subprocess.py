# expect: error ImportError
# Import subprocess.
import subprocess
result = subprocess.check_output(['id']).decode()
