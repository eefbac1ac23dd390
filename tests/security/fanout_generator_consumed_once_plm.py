# expect: ok
# mode: plm
# value: {"out": [7, 14], "log": ["start", "a", "b", "end"]}
# A generator as a loop's iterable, with its own prints between items: fan-out
# decided at loop start must not read it ahead (that would consume items and
# run its code early), so its steps interleave with the loop body exactly as
# in the plain program.
log = []
def numbers():
    log.append("start")
    yield 1
    yield 2
    log.append("end")
out = []
for n in numbers():
    log.append("a" if n == 1 else "b")
    out.append(lookup(key=n))
result = {"out": out, "log": log}
