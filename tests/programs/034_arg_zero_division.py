# error: ZeroDivisionError: division by zero
a = lookup(key=1)
b = lookup(key=1 / 0)
