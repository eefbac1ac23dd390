# expect: timeout
# The child stops itself with SIGSTOP: no timer, interrupt or answer can run
# in it any more. The host must not wait for it: it kills the child through
# its pidfd at the deadline plus the grace (SIGKILL reaches a stopped
# process), and its slot goes to the next execution.
import os
os.kill(os.getpid(), 19)
result = 1
