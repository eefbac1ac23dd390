# error: NameError: name 'x' is not defined
x = 1
a = lookup(key=x)
del x
b = lookup(key=x)
