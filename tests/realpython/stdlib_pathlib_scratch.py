# expect: ok
# value: [["b.txt", "sub/a.txt"], "alpha\n"]
# pathlib writing and reading files in a temporary directory.
import tempfile
from pathlib import Path
with tempfile.TemporaryDirectory() as d:
    base = Path(d)
    (base / "sub").mkdir()
    (base / "sub" / "a.txt").write_text("alpha\n")
    (base / "b.txt").write_text("beta\n")
    result = sorted(str(p.relative_to(base)) for p in base.rglob("*.txt")), (base / "sub" / "a.txt").read_text()
