# expect: ok
# value: [["a.txt", "dir/b.txt"], "betabeta", null]
# zipfile in memory.
import io, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("a.txt", "alpha")
    z.writestr("dir/b.txt", "beta" * 10)
with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
    result = [z.namelist(), z.read("dir/b.txt").decode()[:8], z.testzip()]
