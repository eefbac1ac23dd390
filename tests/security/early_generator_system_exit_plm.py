# expect: ok
# mode: plm
# value: [7, -7, 2]
# A generator whose body raises SystemExit, tested with `in` in a speculative
# call's argument. Evaluated in the prepare thunk, SystemExit escaped the
# thunk's `except Exception` at the prepare site, outside the program's own
# `try`, and ended the program. Early evaluation must not run the generator,
# and nothing it raises may escape a prepare.
def g():
    emit(value='ran')
    raise SystemExit(7)
    yield 1
x = g()
a = lookup(key=1)
try:
    b = lookup(key=1 if 1 in x else 2)
except SystemExit as e:
    b = -e.code
result = [a, b, emit(value='end')]
