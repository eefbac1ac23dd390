# expect: ok
# mode: plm
# value: [7, 7, [3]]
# A builtin iterator runs no user code, but `in` consumes it: evaluating the
# membership early advances the iterator once more than the plain program
# does, and `list(it)` comes out shorter. Early evaluation takes only plain
# data (lists, dicts, strings...), never an iterator.
it = iter([1, 2, 3])
a = lookup(key=1)
b = lookup(key=1 if 2 in it else 0)
result = [a, b, list(it)]
