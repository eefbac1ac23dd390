# expect: error ImportError
# isolation: sandbox
# mmap is refused.
import mmap
