# expect: error ImportError
# isolation: sandbox
# signal is refused: the deadline's handler is the sandbox's.
import signal
