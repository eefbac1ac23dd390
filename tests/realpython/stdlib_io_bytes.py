# expect: ok
# value: ["6c696e65206f6e650a6c", 20, ["a\n", "b\n", "c"]]
# io.BytesIO, TextIOWrapper.
import io
b = io.BytesIO()
t = io.TextIOWrapper(b, encoding="utf-8", newline="")
t.write("line one\nlínea dos\n")
t.flush()
raw = b.getvalue()
result = [raw.hex()[:20], len(raw), io.StringIO("a\nb\nc").readlines()]
