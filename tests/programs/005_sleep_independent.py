# value: "abc"
a = sleep(ms=20, value="a")
b = sleep(ms=20, value="b")
c = sleep(ms=20, value="c")
result = a + b + c
