# expect: error ImportError
# isolation: sandbox
# select is refused (its waits are not allowed in the sandbox).
import select
