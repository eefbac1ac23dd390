# expect: error FileNotFoundError
# Probe the host's file tree by stat: /etc exists on every Linux host, and
# its times tell when the host's configuration last changed. The child's
# root is a tmpfs holding only the stdlib.
import os
st = os.stat('/etc')
result = [st.st_mtime, st.st_nlink]
