# expect: error ImportError
# isolation: sandbox
# resource is refused: the child's limits are the sandbox's.
import resource
