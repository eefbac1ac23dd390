package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// dataclassesProgram uses @dataclass as typed code does: fields with defaults
// and a default_factory list, a frozen value class rebuilt at each step,
// keyword construction and keyword method calls, validation with raise, a
// typed NamedTuple read by field name. The
// program's own Python code still sees the real dataclasses (their repr and
// generated __eq__); a function comparing instances with == stays Python,
// since native code would compare identity.
const dataclassesProgram = `from dataclasses import dataclass, field
from typing import List, NamedTuple


@dataclass
class Item:
    name: str
    price: int
    quantity: int = 0


@dataclass
class Cart:
    items: List[Item] = field(default_factory=list)

    def add(self, name: str, price: int, quantity: int = 1) -> None:
        if price < 0:
            raise ValueError(f"negative price for {name!r}")
        self.items.append(Item(name=name, price=price, quantity=quantity))

    def total(self) -> int:
        return sum(i.price * i.quantity for i in self.items)


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0


def cart_total(prices: List[int]) -> int:
    cart = Cart()
    for k, p in enumerate(prices):
        cart.add("p" + str(k), p, quantity=k + 1)
    return cart.total()


def walk(steps: int) -> int:
    p = Point(0)
    for i in range(steps):
        p = Point(p.x + i, y=p.y - 1)
    return p.x * 1000 + p.y


class Span(NamedTuple):
    start: int
    stop: int = 10

    def size(self) -> int:
        return self.stop - self.start


def span_sum(starts: List[int]) -> int:
    return sum(Span(s).size() + Span(s, stop=s).size() for s in starts)


def same_point(a: int) -> bool:
    return Point(a) == Point(a)


try:
    cart_total([3, -1])
except ValueError as e:
    message = str(e)
result = [cart_total([3, 4, 5]), walk(10), same_point(2), message, repr(Point(1)), Point(1) == Point(1, 0),
          Cart().items is Cart().items, span_sum([1, 2]), Span(1) == (1, 10), type(cart_total).__name__,
          type(same_point).__name__]
`

func TestNativeDataclassesRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, dataclassesProgram, `{}`)
		want := `[26, 44990, true, "negative price for 'p1'", "Point(x=1, y=0)", true, false, 17, true, ` +
			`"NativeFunction", "function"]`
		expectRun(t, resp, want, []string{"cart_total", "walk", "span_sum"}, map[string]string{"same_point": "DataclassEq"})
	})
}
