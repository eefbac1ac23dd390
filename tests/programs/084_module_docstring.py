# value: [7, "A program with a docstring."]
"""A program with a docstring."""
x = lookup(key=1)
result = [x, __doc__]
