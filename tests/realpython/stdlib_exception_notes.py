# expect: error KeyError
# An uncaught KeyError ends the program with its type, as in CPython.
data = {"a": 1}
try:
    data["b"]
except KeyError as e:
    e.add_note("while reading b")
    raise
