# expect: ok
# value: [[3, 11], true, "little", true, true]
# sys facts a program may read.
import sys
result = [sys.version_info[:2], sys.maxsize == 2**63 - 1, sys.byteorder, sys.getrecursionlimit() >= 1000, isinstance(sys.path, list)]
