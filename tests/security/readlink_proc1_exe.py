# expect: error FileNotFoundError
# Find PID 1's executable through /proc/1/exe. With the host's /proc this
# names the host's init (or fails with PermissionError); the child's /proc
# shows it only itself (hidepid=ptraceable), so /proc/1 is not there at all.
import os
result = os.readlink('/proc/1/exe')
