# expect: error ImportError
# isolation: sandbox
# pty is refused.
import pty
