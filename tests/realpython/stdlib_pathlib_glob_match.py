# expect: ok
# value: [true, true, false, "pkg/module.py", false]
# PurePath.match and relative_to.
from pathlib import PurePosixPath
p = PurePosixPath("src/pkg/module.py")
result = [p.match("*.py"), p.match("pkg/*.py"), p.match("*.txt"), str(p.relative_to("src")), p.is_absolute()]
