# expect: ok
# mode: stream
# value: [7, 14, [], 4]
# `in` on a map whose lambda calls the effectful emit: an early start of the
# second lookup (by PLM or while streaming) would iterate the map inside the prepare thunk, running emit
# before the program does (and consuming the map): effects and result
# would differ from the plain program. Early evaluation must leave the
# map alone: emit runs exactly three times, in order, and the value is plain's.
xs = map(lambda v: emit(value=v), [1, 2, 3])
a = lookup(key=1)
b = lookup(key=2 if 3 in xs else 5)
result = [a, b, list(xs), emit(value='end')]
