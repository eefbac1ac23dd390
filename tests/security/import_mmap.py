# expect: error
# Import mmap to map memory executable.
import mmap
result = 1
