# expect: error ImportError
# isolation: sandbox
# http.client is refused.
import http.client
