# expect: ok
# value: [2, ["a", "b"], "add", 5]
# The program's own code objects.
def add(a, b):
    return a + b
code = add.__code__
result = [code.co_argcount, code.co_varnames, code.co_name, add(2, 3)]
