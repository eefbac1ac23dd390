# expect: ok
# value: ["kept", "direct", true]
# isolation: sandbox
# /tmp is the scratch directory too: tempfile's default directory works.
import tempfile, os
with tempfile.NamedTemporaryFile("w+", suffix=".txt", delete=False) as f:
    f.write("kept")
    name = f.name
with open(name) as f:
    content = f.read()
with open("/tmp/direct.txt", "w") as f:
    f.write("direct")
result = [content, open("/tmp/direct.txt").read(), os.path.exists(name)]
