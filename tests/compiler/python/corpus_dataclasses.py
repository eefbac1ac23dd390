"""Typed code with @dataclass classes and typed NamedTuples, written as its
authors would: fields as annotated class attributes with defaults,
field(default=...) and field(default_factory=...), frozen value objects,
keyword construction, methods that validate with raise, Optional links
between instances. Each
entry point takes plain values, builds its objects natively and returns a
plain value (test_dataclasses.py compares it with CPython's)."""
import dataclasses
from dataclasses import dataclass, field
import typing
from typing import Dict, List, NamedTuple, Optional, Set


@dataclass
class Item:
    name: str
    price: int
    quantity: int = 0

    def total(self) -> int:
        if self.price < 0:
            raise ValueError(f"negative price for {self.name!r}: {self.price}")
        return self.price * self.quantity


@dataclass
class Inventory:
    items: List[Item] = field(default_factory=list)
    owner: str = "shop"

    def add(self, name: str, price: int, quantity: int) -> None:
        self.items.append(Item(name, price, quantity))

    def value(self) -> int:
        return sum(i.total() for i in self.items)


def stock_value(amounts: List[int], quantity: int) -> int:
    inv = Inventory()
    for k, price in enumerate(amounts):
        inv.add("item" + str(k), price, quantity)
    return inv.value()


def restock_report(amounts: List[int], owner: str) -> str:
    inv = Inventory(owner=owner)
    for price in amounts:
        inv.items.append(Item(name=f"p{price}", price=price))
    names = ",".join(i.name for i in inv.items if i.quantity == 0)
    return f"{inv.owner}: {len(inv.items)} [{names}]"


def keyword_methods(amounts: List[int]) -> int:
    inv = Inventory(owner="k")
    for k, a in enumerate(amounts):
        inv.add("x", a, quantity=k % 3)
        inv.add(price=a, name="y", quantity=1)
    return inv.value()


@dataclass(frozen=True)
class Edge:
    src: int
    dst: int
    weight: int = 1


def reachable_cost(n: int, amounts: List[int]) -> int:
    edges: List[Edge] = []
    for i in range(0, len(amounts) - 1, 2):
        edges.append(Edge(amounts[i] % max(n, 1), amounts[i + 1] % max(n, 1), weight=abs(amounts[i]) + 1))
    if n <= 0:
        return 0
    dist = [-1] * n
    dist[0] = 0
    for _ in range(n):
        for e in edges:
            if dist[e.src] >= 0 and (dist[e.dst] < 0 or dist[e.src] + e.weight < dist[e.dst]):
                dist[e.dst] = dist[e.src] + e.weight
    return sum(d for d in dist if d >= 0)


@dataclass
class Event:
    time: int
    kind: str
    amount: int = 0


@dataclass
class Account:
    owner: str
    balance: int = 0
    history: List[int] = field(default_factory=list)

    def apply(self, event: Event) -> None:
        if event.kind == "deposit":
            self.balance += event.amount
        elif event.kind == "withdraw":
            if event.amount > self.balance:
                raise ValueError(f"overdraft at t={event.time}: {event.amount} > {self.balance}")
            self.balance -= event.amount
        else:
            raise ValueError(f"unknown event kind {event.kind!r}")
        self.history.append(self.balance)


def simulate_account(amounts: List[int], kind: int) -> List[int]:
    acct = Account("ana")
    kinds = ["deposit", "withdraw", "deposit", "audit"]
    for t, a in enumerate(amounts):
        acct.apply(Event(t, kinds[(t + kind) % len(kinds)], a))
    return acct.history


def separate_histories(n: int) -> List[int]:
    first = Account("a")
    second = Account("b", 5)
    for i in range(n):
        first.history.append(i)
    second.history.append(second.balance)
    return [len(first.history), len(second.history), second.history[0]]


@dataclass(frozen=True)
class Vec:
    x: float
    y: float

    def plus(self, other: "Vec") -> "Vec":
        return Vec(self.x + other.x, self.y + other.y)

    def dot(self, other: "Vec") -> float:
        return self.x * other.x + self.y * other.y


def path_length_squared(amounts: List[int]) -> float:
    pos = Vec(0.0, 0.0)
    total = 0.0
    for i, a in enumerate(amounts):
        step = Vec(float(a), float(i % 3 - 1))
        total += step.dot(step)
        pos = pos.plus(step)
    return total + pos.dot(Vec(1.0, -1.0))


@dataclass
class Tally:
    counts: Dict[str, int] = field(default_factory=dict)
    seen: Set[str] = field(default_factory=set)
    label: str = field(default="tally")
    total: int = field(default_factory=int)

    def add(self, word: str) -> None:
        self.counts[word] = self.counts.get(word, 0) + 1
        self.seen.add(word.lower())
        self.total += 1


def tally_words(words: List[str]) -> str:
    t = Tally()
    for w in words:
        t.add(w)
    best = sorted(t.counts.items(), key=lambda kv: (-kv[1], kv[0]))
    top = ",".join(f"{w}={n}" for w, n in best[:2])
    return f"{t.label}:{t.total}:{len(t.seen)}:{top}"


@dataclass
class Node:
    value: int
    next: Optional["Node"] = None


def reversed_values(amounts: List[int]) -> List[int]:
    head: Optional[Node] = None
    for a in amounts:
        head = Node(a, head)
    out: List[int] = []
    while head is not None:
        out.append(head.value)
        head = head.next
    return out


def nth_after(amounts: List[int], k: int) -> int:
    head: Optional[Node] = None
    for a in amounts[::-1]:
        head = Node(value=a, next=head)
    node = head
    for _ in range(k):
        if node is None:
            raise IndexError(f"list has fewer than {k} nodes")
        node = node.next
    if node is None:
        raise IndexError("past the end")
    return node.value


@dataclass
class Stack:
    items: List[int] = field(default_factory=list)

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int:
        return self.items.pop()

    def empty(self) -> bool:
        return not self.items


def rpn(digits: str) -> int:
    s = Stack()
    for ch in digits:
        if ch.isdigit():
            s.push(int(ch))
        elif ch == "+":
            s.push(s.pop() + s.pop())
        elif ch == "*":
            s.push(s.pop() * s.pop())
        elif ch == "-":
            b = s.pop()
            s.push(s.pop() - b)
    return s.pop() if not s.empty() else 0


def stack_pops(amounts: List[int], pops: int) -> int:
    s = Stack()
    for a in amounts:
        s.push(a)
    total = 0
    for _ in range(pops):
        total += s.pop()
    return total


@dataclass(eq=False)
class Handle:
    key: int


def same_handles(n: int) -> List[bool]:
    a = Handle(n)
    b = Handle(n)
    c = a
    return [a == b, a == c, a != b, a is c, a is b]


@dataclass
class Config:
    width: int = 80
    name: str = "héllo"
    ratio: float = 0.5
    verbose: bool = False


def config_summary(size: int, start: int) -> str:
    default = Config()
    custom = Config(size, verbose=size > 2)
    other = Config(name="z" * (start % 4), width=start)
    return f"{default.width}/{default.name}/{default.ratio}/{default.verbose};" \
        f"{custom.width}/{custom.verbose};{other.width}/{other.name!r}"


def note(trace: List[int], x: int) -> int:
    trace.append(x)
    return x


def written_order(size: int, start: int) -> List[int]:
    trace: List[int] = []
    e = Event(kind="k" * note(trace, size % 3), amount=note(trace, start), time=note(trace, size))
    trace.append(e.time + e.amount + len(e.kind))
    return trace


@dataclasses.dataclass()
class Cell:
    row: int
    col: int
    alive: bool = False

    def neighbours(self, size: int) -> int:
        count = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = self.row + dr, self.col + dc
                if (dr or dc) and 0 <= r < size and 0 <= c < size:
                    count += 1
        return count


def grid_neighbours(size: int) -> int:
    cells = [Cell(r, c, alive=(r + c) % 2 == 0) for r in range(size) for c in range(size)]
    return sum(cell.neighbours(size) for cell in cells if cell.alive)


@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0

    def bump(self, part: int) -> "Version":
        if part == 0:
            return Version(self.major + 1)
        if part == 1:
            return Version(self.major, self.minor + 1)
        if part == 2:
            return Version(self.major, self.minor, self.patch + 1)
        raise ValueError(f"no version part {part}")


def bumped(start: int, amounts: List[int]) -> str:
    v = Version(start)
    for a in amounts:
        v = v.bump(a % 4)
    return f"{v.major}.{v.minor}.{v.patch}"


@dataclass
class Particle:
    x: float
    v: float
    mass: float = 1.0

    def step(self, dt: float) -> None:
        self.x += self.v * dt
        if self.x < 0.0 or self.x > 10.0:
            self.v = -self.v


def simulate_particles(n: int, times: int) -> float:
    ps = [Particle(float(i), 0.5 * (i % 3) - 0.5, mass=1.0 + i) for i in range(n)]
    for _ in range(times):
        for p in ps:
            p.step(0.75)
    total = 0.0
    for p in ps:
        total += p.x * p.mass
    return total


def largest_item(amounts: List[int]) -> str:
    items = [Item(f"n{i}", a, i) for i, a in enumerate(amounts)]
    if not items:
        raise ValueError("no items")
    best = items[0]
    for it in items[1:]:
        if it.price * it.quantity > best.price * best.quantity:
            best = it
    return f"{best.name}={best.total()}"


@dataclass
class Scaled:
    value: int
    factor: int = 3

    def __init__(self, value: int) -> None:  # kept by @dataclass, which generates none
        self.value = value * 2


def scaled_sum(amounts: List[int]) -> int:
    total = 0
    for a in amounts:
        s = Scaled(a)
        total += s.value + s.factor
    return total


class Move(NamedTuple):
    dx: int
    dy: int
    label: str = "step"

    def length(self) -> int:
        return abs(self.dx) + abs(self.dy)


class Span(typing.NamedTuple):
    start: int
    stop: int

    def size(self) -> int:
        if self.stop < self.start:
            raise ValueError(f"bad span {self.start}..{self.stop}")
        return self.stop - self.start


def walk_moves(amounts: List[int]) -> str:
    moves = [Move(a, -a // 2) if a % 2 else Move(dx=a, dy=1, label="jump") for a in amounts]
    x = y = 0
    labels: List[str] = []
    for m in moves:
        x += m.dx
        y += m.dy
        labels.append(f"{m.label}:{m.length()}")
    return f"{x},{y} " + " ".join(labels)


def span_total(amounts: List[int], start: int) -> int:
    spans = [Span(start, a) for a in amounts]
    return sum(s.size() for s in spans)
