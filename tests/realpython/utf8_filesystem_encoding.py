# expect: ok
# value: ["utf-8", "utf8", "utf-8"]
# The text encodings are UTF-8, as in CPython on a usual system.
import sys, locale
result = [sys.getfilesystemencoding(), locale.getpreferredencoding(False).lower().replace("-", ""), sys.getdefaultencoding()]
