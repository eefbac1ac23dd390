# expect: error PermissionError
# Change directory out of the scratch directory and list where it lands:
# chdir is allowed (Landlock governs what is opened, not where a process
# stands), listing the scratch slots is not.
import os
os.chdir('/scratch')
result = os.listdir('.')
