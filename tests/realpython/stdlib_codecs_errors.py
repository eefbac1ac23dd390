# expect: error UnicodeEncodeError
# Encoding to ASCII strictly fails as in CPython.
"β".encode("ascii")
