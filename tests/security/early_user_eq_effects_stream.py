# expect: ok
# mode: stream
# value: [7, 7, 14, 21, 6]
# A class whose __contains__, __eq__ and __hash__ call the effectful emit,
# reached through `in`, `==`, a dict lookup and list membership inside
# speculative calls' arguments. Early evaluation would run these dunders
# ahead of the program; only plain data may be evaluated early, so emit runs
# exactly as often as in the plain program (the last emit returns 6).
class Box:
    def __contains__(self, x):
        emit(value='contains')
        return True
    def __eq__(self, other):
        emit(value='eq')
        return True
    def __hash__(self):
        emit(value='hash')
        return 1
b = Box()
r = lookup(key=1 if 3 in b else 0)
s = lookup(key=1 if b == 1 else 0)
d = {b: 1}
t = lookup(key=2 if 1 in d else 0)
u = lookup(key=3 if 5 in [b] else 0)
result = [r, s, t, u, emit(value='end')]
