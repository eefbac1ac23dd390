# expect: ok
# value: [["greeting.txt"], "hello tar"]
# tarfile in memory.
import io, tarfile
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as t:
    data = b"hello tar"
    info = tarfile.TarInfo("greeting.txt")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))
buf.seek(0)
with tarfile.open(fileobj=buf, mode="r:gz") as t:
    result = [t.getnames(), t.extractfile("greeting.txt").read().decode()]
