# expect: ok
# value: [10, false]
# tempfile.TemporaryDirectory works in every mode and is removed after.
import tempfile, os
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "f.txt")
    with open(path, "w") as f:
        f.write("x" * 10)
    size = os.path.getsize(path)
result = [size, os.path.exists(d)]
