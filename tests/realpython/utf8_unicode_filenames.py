# expect: ok
# value: ["café.txt", "日本.txt"]
# Non-ASCII file names.
import os, tempfile
with tempfile.TemporaryDirectory() as d:
    for name in ["caf\u00e9.txt", "\u65e5\u672c.txt"]:
        with open(os.path.join(d, name), "w") as f:
            f.write(name)
    result = sorted(os.listdir(d))
