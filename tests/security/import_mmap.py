# expect: error ImportError
# Import mmap to map memory executable.
import mmap
result = 1
