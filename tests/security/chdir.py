# expect: violation
# Change directory (a step of most escapes).
import os
os.chdir('/etc')
result = os.getcwd()
