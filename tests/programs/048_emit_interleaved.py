# value: 3
# emitted: [7, "b", 14]
a = lookup(key=1)
emit(value=a)
b = sleep(ms=10, value="b")
emit(value=b)
c = lookup(key=2)
n = emit(value=c)
result = n
