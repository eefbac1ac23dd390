# error: AssertionError: two
assert lookup(key=1) == 7
assert lookup(key=2) == 15, "two"
