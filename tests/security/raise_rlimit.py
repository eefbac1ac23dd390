# expect: error ImportError
# Raise its own limits with resource.
import resource
resource.setrlimit(resource.RLIMIT_AS, (-1, -1))
result = 1
