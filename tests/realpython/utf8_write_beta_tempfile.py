# expect: ok
# value: ["ceb1ceb2ceb320e28094206e61c3af7665", "αβγ — naïve"]
# open() in text mode writes UTF-8 by default.
import tempfile, os
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "greek.txt")
    with open(p, "w") as f:
        f.write("\u03b1\u03b2\u03b3 \u2014 na\u00efve")
    with open(p, "rb") as f:
        raw = f.read()
    with open(p) as f:
        text = f.read()
result = [raw.hex(), text]
