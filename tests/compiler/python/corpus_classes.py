"""Typed code with class hierarchies and Optional references, written as its
authors would: base classes whose methods subclasses override, super() and
Base.__init__(self, ...) calls, isinstance on subclasses, typing.cast,
linked structures through Optional['Node'] fields, `is None` tests, and
validation with raise. Each entry point takes plain values, builds its
objects natively and returns a plain value (test_classes.py compares it
with CPython's)."""
from typing import List, Optional, cast


class Shape:
    def __init__(self, name: str) -> None:
        self.name = name

    def area(self) -> int:
        return 0

    def perimeter(self) -> int:
        return 0

    def describe(self) -> str:
        return f"{self.name}({self.area()}/{self.perimeter()})"


class Rect(Shape):
    def __init__(self, w: int, h: int) -> None:
        super().__init__("rect")
        if w < 0 or h < 0:
            raise ValueError(f"negative side: {w} x {h}")
        self.w = w
        self.h = h

    def area(self) -> int:
        return self.w * self.h

    def perimeter(self) -> int:
        return 2 * (self.w + self.h)


class Square(Rect):
    def __init__(self, side: int) -> None:
        Rect.__init__(self, side, side)
        self.name = "square"


class Triangle(Shape):
    def __init__(self, a: int, b: int, c: int) -> None:
        super().__init__("triangle")
        if a + b <= c or a + c <= b or b + c <= a:
            raise ValueError("not a triangle")
        self.a = a
        self.b = b
        self.c = c

    def perimeter(self) -> int:
        return self.a + self.b + self.c


def make_shape(kind: int, size: int) -> Shape:
    if kind % 4 == 0:
        return Rect(size, size + 1)
    if kind % 4 == 1:
        return Square(size)
    if kind % 4 == 2:
        return Triangle(size, size, size)
    return Shape("point")


def shapes_summary(n: int, size: int) -> str:
    parts: List[str] = []
    for i in range(n):
        parts.append(make_shape(i, size).describe())
    return ", ".join(parts)


def total_area(n: int, size: int) -> int:
    total = 0
    for i in range(n):
        total += make_shape(i, size + i).area()
    return total


def count_rects(n: int, size: int) -> int:
    shapes = [make_shape(i, size) for i in range(n)]
    return sum(1 for s in shapes if isinstance(s, Rect))


def squares_only(n: int, size: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        s = make_shape(i, size)
        if isinstance(s, Square):
            out.append(s.w * 4)
        elif isinstance(s, Rect):
            out.append(-s.w)
    return out


def rect_width(kind: int, size: int) -> int:
    s = make_shape(kind, size)
    r = cast(Rect, s)
    return r.w


class Animal:
    def __init__(self, name: str, legs: int) -> None:
        self.name = name
        self.legs = legs

    def sound(self) -> str:
        return "..."

    def speak(self, times: int) -> str:
        if times < 0:
            raise ValueError(f"{self.name} cannot speak {times} times")
        return " ".join([self.sound()] * times)


class Dog(Animal):
    def __init__(self, name: str) -> None:
        super().__init__(name, 4)

    def sound(self) -> str:
        return "woof"


class Puppy(Dog):
    def sound(self) -> str:
        return "yip"


class Bird(Animal):
    def __init__(self, name: str) -> None:
        Animal.__init__(self, name, 2)
        self.flying = False

    def sound(self) -> str:
        return "tweet" if not self.flying else "TWEET"

    def fly(self) -> None:
        self.flying = True


def chorus(times: int) -> str:
    zoo: List[Animal] = [Dog("rex"), Puppy("bit"), Bird("kiwi"), Animal("fish", 0)]
    b = zoo[2]
    if isinstance(b, Bird):
        b.fly()
    return " | ".join([a.name + ": " + a.speak(times) for a in zoo])


def total_legs(names: List[str]) -> int:
    legs = 0
    for name in names:
        if name.startswith("d"):
            legs += Dog(name).legs
        elif name.startswith("p"):
            legs += Puppy(name).legs
        else:
            legs += Bird(name).legs
    return legs


class Node:
    def __init__(self, value: int, next: Optional['Node'] = None) -> None:
        self.value = value
        self.next = next


class Stack:
    def __init__(self) -> None:
        self.top: Optional[Node] = None
        self.size = 0

    def push(self, value: int) -> None:
        self.top = Node(value, self.top)
        self.size += 1

    def pop(self) -> int:
        top = self.top
        if top is None:
            raise IndexError("pop from empty stack")
        self.top = top.next
        self.size -= 1
        return top.value

    def peek(self) -> Optional[Node]:
        return self.top


def stack_ops(values: List[int], pops: int) -> List[int]:
    s = Stack()
    for v in values:
        s.push(v)
    out: List[int] = []
    for _ in range(pops):
        out.append(s.pop())
    top = s.peek()
    out.append(-1 if top is None else top.value)
    return out


def reverse_linked(values: List[int]) -> List[int]:
    head: Optional[Node] = None
    for v in values:
        head = Node(v, head)
    prev: Optional[Node] = None
    while head is not None:
        nxt = head.next
        head.next = prev
        prev = head
        head = nxt
    out: List[int] = []
    p = prev
    while p:
        out.append(p.value)
        p = p.next
    return out


def linked_length_after(values: List[int], k: int) -> int:
    head: Optional[Node] = None
    for v in values:
        head = Node(v, head)
    p = head
    for _ in range(k):
        p = p.next
    return p.value


class TreeNode:
    def __init__(self, key: int) -> None:
        self.key = key
        self.left: Optional[TreeNode] = None
        self.right: Optional[TreeNode] = None


class BST:
    def __init__(self) -> None:
        self.root: Optional[TreeNode] = None
        self.count = 0

    def insert(self, key: int) -> bool:
        if self.root is None:
            self.root = TreeNode(key)
            self.count += 1
            return True
        node = self.root
        while True:
            if key == node.key:
                return False
            if key < node.key:
                if node.left is None:
                    node.left = TreeNode(key)
                    self.count += 1
                    return True
                node = node.left
            else:
                if node.right is None:
                    node.right = TreeNode(key)
                    self.count += 1
                    return True
                node = node.right

    def height(self, node: Optional[TreeNode]) -> int:
        if node is None:
            return 0
        return 1 + max(self.height(node.left), self.height(node.right))

    def in_order(self, node: Optional[TreeNode], out: List[int]) -> None:
        if node is not None:
            self.in_order(node.left, out)
            out.append(node.key)
            self.in_order(node.right, out)


def bst_sorted(values: List[int]) -> List[int]:
    t = BST()
    for v in values:
        t.insert(v)
    out: List[int] = []
    t.in_order(t.root, out)
    return out


def bst_height(values: List[int]) -> int:
    t = BST()
    dups = 0
    for v in values:
        if not t.insert(v):
            dups += 1
    return t.height(t.root) * 1000 + dups * 10 + t.count


class Expr:
    def eval(self) -> int:
        raise ValueError("abstract expression")

    def show(self) -> str:
        return "?"


class Num(Expr):
    def __init__(self, v: int) -> None:
        self.v = v

    def eval(self) -> int:
        return self.v

    def show(self) -> str:
        return str(self.v)


class BinOp(Expr):
    def __init__(self, op: str, left: Expr, right: Expr) -> None:
        self.op = op
        self.left = left
        self.right = right

    def eval(self) -> int:
        a = self.left.eval()
        b = self.right.eval()
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        if b == 0:
            raise ZeroDivisionError(f"{self.show()} divides by zero")
        return a // b

    def show(self) -> str:
        return "(" + self.left.show() + " " + self.op + " " + self.right.show() + ")"


def build_expr(digits: str) -> Expr:
    ops = "+-*/"
    e: Expr = Num(ord(digits[0]) - ord("0")) if digits else Expr()
    for i in range(1, len(digits)):
        e = BinOp(ops[i % 4], e, Num(ord(digits[i]) - ord("0")))
    return e


def eval_chain(digits: str) -> int:
    return build_expr(digits).eval()


def show_chain(digits: str) -> str:
    return build_expr(digits).show()


class Account:
    def __init__(self, owner: str, balance: int) -> None:
        if balance < 0:
            raise ValueError(f"opening balance of {owner} is negative")
        self.owner = owner
        self.balance = balance

    def fee(self, amount: int) -> int:
        return 0

    def withdraw(self, amount: int) -> int:
        total = amount + self.fee(amount)
        if total > self.balance:
            raise ValueError(f"{self.owner}: insufficient funds for {amount}")
        self.balance -= total
        return self.balance


class Checking(Account):
    def fee(self, amount: int) -> int:
        return 1 if amount < 100 else 0


class Savings(Account):
    def __init__(self, owner: str, balance: int, rate: int) -> None:
        super().__init__(owner, balance)
        self.rate = rate

    def fee(self, amount: int) -> int:
        return amount * self.rate // 100


def withdraw_all(amounts: List[int], start: int) -> List[int]:
    accounts: List[Account] = [Account("ann", start), Checking("bob", start), Savings("cy", start, 5)]
    out: List[int] = []
    for i, a in enumerate(amounts):
        out.append(accounts[i % 3].withdraw(a))
    return out


def same_object(k: int) -> int:
    a: Account = Checking("x", 10)
    b = a
    c: Optional[Account] = None
    if k > 0:
        c = a
    score = 0
    if a is b:
        score += 1
    if c is a:
        score += 10
    if c is not None:
        score += 100
    if c is None:
        score += 1000
    return score


class Packet:
    def __init__(self, link: Optional['Packet'], ident: int, kind: int) -> None:
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0

    def append_to(self, queue: Optional['Packet']) -> 'Packet':
        """Put this packet last in @p queue; returns the queue's head."""
        self.link = None
        if not queue:
            return self
        tail = queue
        while tail.link is not None:
            tail = tail.link
        tail.link = self
        return queue


class Worker:
    def __init__(self, ident: int, link: Optional['Worker']) -> None:
        self.ident = ident
        self.link = link
        self.queue: Optional[Packet] = None
        self.done = 0

    def step(self, pkt: Optional[Packet]) -> Optional['Worker']:
        return self.link

    def run(self) -> Optional['Worker']:
        pkt = self.queue
        if pkt is not None:
            self.queue = pkt.link
        return self.step(pkt)


class Doubler(Worker):
    def step(self, pkt: Optional[Packet]) -> Optional[Worker]:
        if pkt is None:
            return self.link
        pkt.datum = pkt.datum * 2 + self.ident
        self.done += 1
        return self


class Counter(Worker):
    def __init__(self, ident: int, link: Optional[Worker], limit: int) -> None:
        super().__init__(ident, link)
        self.limit = limit

    def step(self, pkt: Optional[Packet]) -> Optional[Worker]:
        self.done += 1
        if pkt is not None and self.done <= self.limit:
            return self
        return self.link


def round_robin(n: int, limit: int) -> List[int]:
    counter = Counter(3, None, limit)
    doubler = Doubler(2, counter)
    head: Worker = Worker(1, doubler)
    pkts: Optional[Packet] = None
    for i in range(n):
        pkts = Packet(None, i, 1000 + i % 2).append_to(pkts)
    doubler.queue = pkts
    counter.queue = Packet(None, -1, 0).append_to(Packet(None, -2, 0))
    t: Optional[Worker] = head
    steps = 0
    while t is not None and steps < 1000:
        t = t.run()
        steps += 1
    return [steps, head.done, doubler.done, counter.done]


def queue_kinds(kinds: List[int]) -> List[int]:
    q: Optional[Packet] = None
    for i, k in enumerate(kinds):
        q = Packet(None, i, k).append_to(q)
    out: List[int] = []
    while q is not None:
        out.append(q.kind * 100 + q.ident)
        q = q.link
    return out


def count_workers(n: int) -> int:
    w: Optional[Worker] = None
    for i in range(n):
        if i % 3 == 0:
            w = Doubler(i, w)
        elif i % 3 == 1:
            w = Counter(i, w, i)
        else:
            w = Worker(i, w)
    total = 0
    while w is not None:
        if isinstance(w, Counter):
            total += w.limit
        elif isinstance(w, Doubler):
            total += 1000
        w = w.link
    return total
