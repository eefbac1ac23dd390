# expect: ok
# value: ["jello world", "dead", ["a", "b", "", "c"], "ABC", "yz"]
# bytes and bytearray methods.
b = bytearray(b"hello")
b[0] = ord("j")
b.extend(b" world")
result = [b.decode(), bytes.fromhex("de ad").hex(), [p.decode() for p in b"a,b,,c".split(b",")], b"abc".upper().decode(), memoryview(b"xyz")[1:].tobytes().decode()]
