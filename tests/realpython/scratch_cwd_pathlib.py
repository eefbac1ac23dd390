# expect: ok
# value: [["y.bin"], [0, 1, 2, 3, 4]]
# isolation: sandbox
# pathlib in the scratch directory: mkdir, write_bytes, iterdir, unlink, rename.
from pathlib import Path
d = Path("work")
d.mkdir()
(d / "x.bin").write_bytes(bytes(range(5)))
(d / "x.bin").rename(d / "y.bin")
(d / "z.txt").write_text("z")
(d / "z.txt").unlink()
result = [sorted(p.name for p in d.iterdir()), list((d / "y.bin").read_bytes())]
