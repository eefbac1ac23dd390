# expect: ok
# value: [3.75, []]
# dataclasses: __post_init__ and field(default_factory).
from dataclasses import dataclass, field
@dataclass
class Cart:
    items: list = field(default_factory=list)
    total: float = 0
    def __post_init__(self):
        self.total = sum(p for _, p in self.items)
result = [Cart([("a", 1.5), ("b", 2.25)]).total, Cart().items]
