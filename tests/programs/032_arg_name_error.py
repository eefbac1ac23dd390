# error: NameError: name 'undefined_name' is not defined
a = lookup(key=1)
b = lookup(key=undefined_name)
result = a
