# expect: error SyntaxError
# mode: stream
# The stream stops arriving in the middle of a statement, after two calls
# were started early. Finish must report the program's SyntaxError, cancel
# the early calls (never claimed) and release the child, not wait for the
# rest of a statement that never comes.
a = sleep(ms=3600000, value=1)
b = sleep(ms=3600000, value=2)
result = [a, b, lookup(key=
