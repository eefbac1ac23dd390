# expect: ok
# value: [{"title": "x", "year": 1}, {"x": 1, "y": 0}, ["a", "b", "return"], true, false]
# typing at runtime: TypedDict, NamedTuple, get_type_hints, Protocol.
from typing import TypedDict, NamedTuple, Optional, get_type_hints, Protocol, runtime_checkable
class Movie(TypedDict):
    title: str
    year: int
class Point(NamedTuple):
    x: int
    y: int = 0
@runtime_checkable
class Sized(Protocol):
    def __len__(self) -> int: ...
def f(a: int, b: Optional[str] = None) -> list[int]:
    return [a]
result = [Movie(title="x", year=1), Point(1)._asdict(), sorted(get_type_hints(f)), isinstance([], Sized), isinstance(1, Sized)]
