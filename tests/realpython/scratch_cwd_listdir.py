# expect: ok
# value: ["a.txt", "b.txt", "sub"]
# isolation: sandbox
# os.listdir('.') lists only what this execution wrote.
import os
for name in ["b.txt", "a.txt"]:
    with open(name, "w") as f:
        f.write(name)
os.mkdir("sub")
result = sorted(os.listdir("."))
