# expect: ok
# value: [{"n": [1, 2], "name": "spine"}, "=C3=A9=3D1", "é"]
# plistlib and quopri in memory.
import plistlib, quopri
pl = plistlib.dumps({"name": "spine", "n": [1, 2]})
result = [plistlib.loads(pl), quopri.encodestring("é=1".encode()).decode(), quopri.decodestring(b"=C3=A9").decode()]
