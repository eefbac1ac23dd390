# expect: ok
# value: ["c3a9", "é", "ff"]
# os.fsencode / fsdecode use UTF-8.
import os
result = [os.fsencode("\u00e9").hex(), os.fsdecode(b"\xc3\xa9"), os.fsencode("\udcff").hex()]
