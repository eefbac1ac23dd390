# expect: error FileNotFoundError
# Learn the size and modification time of a host file by stat (Landlock
# governs opening, not stat): the planted secret's path is given. The child's
# root holds only the stdlib, so the path does not exist there.
import os
st = os.stat(inputs['secret_path'])
result = [st.st_size, st.st_mtime]
