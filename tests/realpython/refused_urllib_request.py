# expect: error ImportError
# isolation: sandbox
# urllib.request is refused (network); urllib.parse is not.
import urllib.parse
import urllib.request
