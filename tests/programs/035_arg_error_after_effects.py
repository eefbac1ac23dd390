# error: ZeroDivisionError: integer division or modulo by zero
# stdout: "before\n"
# emitted: [1]
print("before")
emit(value=1)
x = lookup(key=1 // 0)
emit(value=2)
