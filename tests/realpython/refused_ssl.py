# expect: error ImportError
# isolation: sandbox
# ssl is refused.
import ssl
