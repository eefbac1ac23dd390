# expect: ok
# mode: plm
# value: [7, -9, 2]
# Like the SystemExit case with KeyboardInterrupt, another BaseException
# that an `except Exception` around early evaluation would let escape.
def g():
    emit(value='ran')
    raise KeyboardInterrupt(9)
    yield 1
x = g()
a = lookup(key=1)
try:
    b = lookup(key=1 if 1 in x else 2)
except KeyboardInterrupt as e:
    b = -e.args[0]
result = [a, b, emit(value='end')]
