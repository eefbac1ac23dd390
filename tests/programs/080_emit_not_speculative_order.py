# value: [1, 2]
# emitted: ["a", 7]
n1 = emit(value="a")
x = lookup(key=n1)
n2 = emit(value=x)
if n2 > 5:
    emit(value="never")
result = [n1, n2]
