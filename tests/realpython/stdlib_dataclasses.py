# expect: ok
# value: [{"priority": 1, "name": "a", "tags": ["x"]}, "B", ["a", "b", "c"]]
# dataclasses: defaults, ordering, asdict, replace.
from dataclasses import dataclass, field, asdict, replace
@dataclass(order=True, frozen=True)
class Item:
    priority: int
    name: str = field(compare=False)
    tags: tuple = ()
items = sorted([Item(3, "c"), Item(1, "a", ("x",)), Item(2, "b")])
result = [asdict(items[0]), replace(items[1], name="B").name, [i.name for i in items]]
