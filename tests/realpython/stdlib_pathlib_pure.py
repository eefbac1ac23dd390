# expect: ok
# value: ["summary.tar.gz", "summary.tar", ".gz", [".tar", ".gz"], "/data/reports/2024", ["/", "data", "reports"], "/data/reports/2024/summary.tar.zip", "a/b/c.txt"]
# pathlib's pure path arithmetic.
from pathlib import PurePosixPath, Path
p = PurePosixPath("/data/reports/2024/summary.tar.gz")
result = [p.name, p.stem, p.suffix, p.suffixes, str(p.parent), p.parts[:3], str(p.with_suffix(".zip")), str(Path("a") / "b" / "c.txt")]
