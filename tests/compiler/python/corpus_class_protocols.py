"""Typed data structures written the way TheAlgorithms-style code writes them:
classes with dunder methods (__len__, __contains__, __bool__, __eq__, __lt__,
__add__, __iadd__, __neg__, __str__, __repr__), class-level constants,
@staticmethod helpers, @classmethod constructors and read-only @property
getters, next to dunders native code never calls (__iter__ as a generator,
__hash__). Each entry point takes plain values, builds its objects natively
and returns a plain value (test_class_protocols.py compares it with CPython's)."""
from dataclasses import dataclass
from typing import ClassVar, Iterator, List, Optional


class Stack:
    """A bounded LIFO stack."""

    MAX_SIZE = 8

    def __init__(self) -> None:
        self.items: List[int] = []

    def push(self, item: int) -> None:
        if len(self.items) >= self.MAX_SIZE:
            raise OverflowError(f"stack is full ({Stack.MAX_SIZE} items)")
        self.items.append(item)

    def pop(self) -> int:
        if self.is_empty():
            raise IndexError("pop from an empty stack")
        return self.items.pop()

    def peek(self) -> int:
        if not self:
            raise IndexError("peek at an empty stack")
        return self.items[-1]

    def is_empty(self) -> bool:
        return len(self) == 0

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item: int) -> bool:
        return item in self.items

    def __repr__(self) -> str:
        return f"Stack([{', '.join(str(item) for item in self.items)}])"

    def __iter__(self) -> Iterator[int]:
        yield from reversed(self.items)


class Vector:
    """A 2-d integer vector."""

    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y

    def __add__(self, other: "Vector") -> "Vector":
        return Vector(self.x + other.x, self.y + other.y)

    def __sub__(self, other: "Vector") -> "Vector":
        return Vector(self.x - other.x, self.y - other.y)

    def __mul__(self, k: int) -> "Vector":
        return Vector(self.x * k, self.y * k)

    def __neg__(self) -> "Vector":
        return Vector(-self.x, -self.y)

    def __eq__(self, other: "Vector") -> bool:
        return self.x == other.x and self.y == other.y

    def __lt__(self, other: "Vector") -> bool:
        return self.norm2() < other.norm2()

    def __le__(self, other: "Vector") -> bool:
        return self.norm2() <= other.norm2()

    def __repr__(self) -> str:
        return f"Vector({self.x}, {self.y})"

    def norm2(self) -> int:
        return self.x * self.x + self.y * self.y

    @staticmethod
    def dot(a: "Vector", b: "Vector") -> int:
        return a.x * b.x + a.y * b.y


class Matrix:
    """A square integer matrix."""

    DEFAULT_SIZE = 2
    NAME = "matrix"

    def __init__(self, rows: List[List[int]]) -> None:
        for row in rows:
            if len(row) != len(rows):
                raise ValueError(f"a {len(rows)}x{len(rows)} matrix needs rows of {len(rows)}")
        self.rows = rows

    @classmethod
    def identity(cls, n: int) -> "Matrix":
        if n <= 0:
            n = cls.DEFAULT_SIZE
        return cls([[1 if i == j else 0 for j in range(n)] for i in range(n)])

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def trace(self) -> int:
        return sum(self.rows[i][i] for i in range(self.size))

    def __add__(self, other: "Matrix") -> "Matrix":
        if self.size != other.size:
            raise ValueError("matrices of different sizes")
        return Matrix([[a + b for a, b in zip(r, s)] for r, s in zip(self.rows, other.rows)])

    def __mul__(self, other: "Matrix") -> "Matrix":
        n = self.size
        return Matrix([[sum(self.rows[i][k] * other.rows[k][j] for k in range(n)) for j in range(n)]
                       for i in range(n)])

    def __eq__(self, other: "Matrix") -> bool:
        return self.rows == other.rows

    def __str__(self) -> str:
        return "\n".join(" ".join(str(v) for v in row) for row in self.rows)

    def __hash__(self) -> int:
        return hash(str(self))


class Node:
    def __init__(self, data: int, next_node: Optional["Node"] = None) -> None:
        self.data = data
        self.next_node = next_node


class LinkedList:
    """A singly linked list with a head pointer."""

    def __init__(self) -> None:
        self.head: Optional[Node] = None
        self.count = 0

    def insert_head(self, data: int) -> None:
        self.head = Node(data, self.head)
        self.count += 1

    @property
    def first(self) -> int:
        if self.head is None:
            raise IndexError("the list is empty")
        return self.head.data

    def __len__(self) -> int:
        return self.count

    def __contains__(self, data: int) -> bool:
        node = self.head
        while node is not None:
            if node.data == data:
                return True
            node = node.next_node
        return False

    def __str__(self) -> str:
        parts: List[str] = []
        node = self.head
        while node is not None:
            parts.append(str(node.data))
            node = node.next_node
        return " -> ".join(parts) if parts else "empty"

    def __iter__(self) -> Iterator[int]:
        node = self.head
        while node:
            yield node.data
            node = node.next_node

    @staticmethod
    def from_list(values: List[int]) -> "LinkedList":
        ll = LinkedList()
        for i in range(len(values) - 1, -1, -1):
            ll.insert_head(values[i])
        return ll


class Fraction:
    """A reduced fraction."""

    num: int
    den: int

    def __init__(self, num: int, den: int) -> None:
        if den == 0:
            raise ZeroDivisionError("denominator is zero")
        g = Fraction.gcd(abs(num), abs(den))
        sign = -1 if den < 0 else 1
        self.num = sign * num // g
        self.den = sign * den // g

    @staticmethod
    def gcd(a: int, b: int) -> int:
        while b:
            a, b = b, a % b
        return a if a else 1

    def __add__(self, other: "Fraction") -> "Fraction":
        return Fraction(self.num * other.den + other.num * self.den, self.den * other.den)

    def __mul__(self, other: "Fraction") -> "Fraction":
        return Fraction(self.num * other.num, self.den * other.den)

    def __neg__(self) -> "Fraction":
        return Fraction(-self.num, self.den)

    def __eq__(self, other: "Fraction") -> bool:
        return self.num == other.num and self.den == other.den

    def __ne__(self, other: "Fraction") -> bool:
        return not self == other

    def __lt__(self, other: "Fraction") -> bool:
        return self.num * other.den < other.num * self.den

    def __bool__(self) -> bool:
        return self.num != 0

    def __str__(self) -> str:
        return f"{self.num}/{self.den}" if self.den != 1 else str(self.num)

    def __repr__(self):
        return f"Fraction({self.num}, {self.den})"


class Counter:
    """A running total that += adds to in place."""

    STEP: ClassVar[int] = 1

    def __init__(self, start: int) -> None:
        self.total = start

    def __iadd__(self, amount: int) -> "Counter":
        self.total += amount * self.STEP
        return self

    def __add__(self, amount: int) -> "Counter":
        return Counter(self.total + amount)


@dataclass
class Money:
    """An amount in cents; the dataclass makes __init__, the class adds its operators."""

    cents: int
    CURRENCY: ClassVar[str] = "EUR"

    def __add__(self, other: "Money") -> "Money":
        return Money(self.cents + other.cents)

    def __lt__(self, other: "Money") -> bool:
        return self.cents < other.cents

    def __str__(self) -> str:
        sign = "-" if self.cents < 0 else ""
        return f"{sign}{abs(self.cents) // 100}.{abs(self.cents) % 100:02d} {self.CURRENCY}"


class Window:
    """A half-open range [start, end) whose length may be negative (a misuse len() reports)."""

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end

    def __len__(self) -> int:
        return self.end - self.start

    def __contains__(self, x: int) -> int:
        return 1 if self.start <= x < self.end else 0


class Account:
    """An interest rate per class, shadowed by an instance's own for VIPs."""

    RATE = 2
    BANK = "spine"
    TIERS = (("basic", 0), ("gold", 1000), ("platinum", 100000))

    def __init__(self, balance: int, vip: bool) -> None:
        self.balance = balance
        if vip:
            self.RATE = 5

    def interest(self) -> int:
        return self.balance * self.RATE // 100

    def tier(self) -> str:
        name = self.TIERS[0][0]
        for tier, floor in self.TIERS:
            if self.balance >= floor:
                name = tier
        return name


# ---- entry points ------------------------------------------------------------
def stack_ops(values: List[int], pops: int) -> List[int]:
    s = Stack()
    for v in values:
        s.push(v)
    out = []
    for _ in range(pops):
        out.append(s.pop())
    out.append(len(s))
    return out


def stack_peek_or(values: List[int], default: int) -> int:
    s = Stack()
    for v in values:
        s.push(v)
    return s.peek() if s else default


def stack_contains(values: List[int], x: int) -> bool:
    s = Stack()
    for v in values:
        s.push(v)
    return x in s and not s.is_empty()


def stack_not_contains(values: List[int], x: int) -> bool:
    s = Stack()
    for v in values[: Stack.MAX_SIZE]:
        s.push(v)
    return x not in s


def stack_repr(values: List[int]) -> str:
    s = Stack()
    for v in values:
        s.push(v)
    return f"{s!r} has {len(s)} of {s.MAX_SIZE}: {repr(s)}"


def stack_peek_empty(n: int) -> int:
    s = Stack()
    for i in range(n):
        s.push(i * i)
    return s.peek()


def vector_sum(xs: List[int]) -> str:
    total = Vector(0, 0)
    for i, x in enumerate(xs):
        total = total + Vector(x, i)
    return str(total)


def vector_arith(a: int, b: int) -> List[int]:
    v = Vector(a, b)
    w = (v - Vector(1, 2)) * 3 + -v
    return [w.x, w.y, Vector.dot(v, w), v.dot(v, v)]


def vector_compare(a: int, b: int) -> List[bool]:
    v, w = Vector(a, b), Vector(b, a)
    return [v == w, v != w, v < w, v <= w, w < v, v == Vector(a, b), v != Vector(a, b)]


def vector_chain(a: int, b: int) -> bool:
    return Vector(0, 0) <= Vector(a, 0) < Vector(b, b)


def vector_text(a: int, b: int) -> str:
    v = Vector(a, b)
    return f"{v} {v!s} {v!r} " + str(-v) + repr(v * 2)


def matrix_trace(n: int) -> int:
    m = Matrix.identity(n)
    return (m + m + m).trace


def matrix_text(n: int) -> str:
    m = Matrix.identity(n)
    return f"{Matrix.NAME} {m.NAME} size {m.size}:\n{m + m}"


def matrix_power_trace(rows: List[int], k: int) -> int:
    n = 1
    while n * n < len(rows):
        n += 1
    if n * n != len(rows):
        raise ValueError(f"{len(rows)} values do not make a square matrix")
    m = Matrix([rows[i * n:(i + 1) * n] for i in range(n)])
    p = Matrix.identity(n)
    for _ in range(k):
        p = p * m
    return p.trace


def matrix_equal(left: List[int], right: List[int]) -> bool:
    n = Matrix.DEFAULT_SIZE
    ma = Matrix([left[i * n:(i + 1) * n] for i in range(n)])
    mb = Matrix([right[i * n:(i + 1) * n] for i in range(n)])
    return ma == mb or ma * mb == mb * ma


def matrix_mismatch(n: int) -> int:
    return (Matrix.identity(n) + Matrix.identity(n + 1)).size


def linked_text(values: List[int]) -> str:
    ll = LinkedList.from_list(sorted(values))
    return f"{ll} ({len(ll)})"


def linked_first(values: List[int]) -> int:
    return LinkedList.from_list(sorted(values)).first


def linked_search(values: List[int], targets: List[int]) -> List[bool]:
    ll = LinkedList.from_list(sorted(values))
    return [t in ll for t in targets]


def linked_truth(values: List[int]) -> str:
    ll = LinkedList()
    for v in values:
        ll.insert_head(v)
    return "non-empty" if ll else "empty"


def fraction_sum(nums: List[int]) -> str:
    total = Fraction(0, 1)
    for i, n in enumerate(nums):
        total = total + Fraction(n, i + 1)
    return str(total)


def fraction_make(num: int, den: int) -> str:
    f = Fraction(num, den)
    return f"{f} {-f} {f * f}"


def fraction_order(nums: List[int]) -> List[int]:
    fracs = [Fraction(n, 3) for n in nums]
    smallest = 0
    for i in range(1, len(fracs)):
        if fracs[i] < fracs[smallest]:
            smallest = i
    return [smallest, int(fracs[0] == fracs[-1]), int(fracs[0] != fracs[-1])] if fracs else []


def fraction_truth(num: int, den: int) -> List[bool]:
    f = Fraction(num, den)
    return [bool(f), not f, bool(f + Fraction(1, 2))]


def counter_total(amounts: List[int]) -> int:
    c = Counter(0)
    for a in amounts:
        c += a
    d = c + 10
    d += Counter.STEP
    return c.total * 1000 + d.total


def window_len(start: int, end: int) -> int:
    return len(Window(start, end))


def window_truth(start: int, end: int) -> str:
    w = Window(start, end)
    return ("inside" if start + 1 in w else "outside") + (" full" if w else " empty")


def account_interest(balance: int, vip: bool) -> List[int]:
    a = Account(balance, vip)
    plain = Account(balance, False)
    return [a.interest(), a.RATE, plain.RATE, Account.RATE, len(Account.BANK + a.BANK)]


def account_tier(balance: int, vip: bool) -> str:
    a = Account(balance * 137, vip)
    return f"{a.tier()} of {len(Account.TIERS)} at {a.BANK}"


def money_total(amounts: List[int]) -> str:
    total = Money(0)
    largest = Money(0)
    for a in amounts:
        m = Money(a * 37)
        total = total + m
        if largest < m:
            largest = m
    return f"{total} (largest {largest}, in {Money.CURRENCY})"
