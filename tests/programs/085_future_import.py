# value: 14
from __future__ import annotations
x: int = lookup(key=2)
result = x
