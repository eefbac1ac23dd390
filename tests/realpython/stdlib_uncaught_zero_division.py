# expect: error ZeroDivisionError
# An uncaught ZeroDivisionError.
total = 0
result = 10 / total
