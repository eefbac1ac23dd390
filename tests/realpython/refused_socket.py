# expect: error ImportError
# isolation: sandbox
# socket is refused in the sandbox: a child has no network.
import socket
