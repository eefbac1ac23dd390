# value: null
# stdout: "start\ngot a\ngot 21\nend\n"
# emitted: [["a", 21]]
print("start")
a = sleep(ms=5, value="a")
print("got", a)
b = lookup(key=3)
print("got", b)
emit(value=[a, b])
print("end")
