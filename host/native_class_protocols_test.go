package host_test

import (
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// classProtocolsProgram is a TheAlgorithms-style stack: a class constant, a
// @staticmethod, a @property, __len__, __contains__, __eq__, __add__ and
// __repr__ called implicitly by the typed functions Python calls, next to an
// __iter__ generator native code never calls. len() of a negative __len__ is
// CPython's ValueError, raised by the native function itself, as is the
// OverflowError of a full stack.
const classProtocolsProgram = `
from typing import Iterator, List


class Stack:
    MAX_SIZE = 4

    def __init__(self) -> None:
        self.items: List[int] = []

    def push(self, x: int) -> None:
        if len(self) >= Stack.MAX_SIZE:
            raise OverflowError(f"stack is full ({self.MAX_SIZE} items)")
        self.items.append(x)

    @property
    def top(self) -> int:
        return self.items[-1]

    @staticmethod
    def of(values: List[int]) -> "Stack":
        s = Stack()
        for v in values:
            s.push(v)
        return s

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, x: int) -> bool:
        return x in self.items

    def __eq__(self, other: "Stack") -> bool:
        return self.items == other.items

    def __add__(self, other: "Stack") -> "Stack":
        return Stack.of(self.items + other.items)

    def __repr__(self) -> str:
        return "Stack(" + ", ".join(str(x) for x in self.items) + ")"

    def __iter__(self) -> Iterator[int]:
        yield from self.items


class Span:
    def __init__(self, lo: int, hi: int) -> None:
        self.lo = lo
        self.hi = hi

    def __len__(self) -> int:
        return self.hi - self.lo


def summary(a: int, b: int) -> str:
    s = Stack.of([a, b])
    t = s + Stack.of([a])
    return f"{t} len={len(t)} top={t.top} has_b={b in t} same={s == Stack.of([a, b])} {bool(Stack())}"


def span(lo: int, hi: int) -> int:
    return len(Span(lo, hi))


def fill(n: int) -> int:
    return len(Stack.of(list(range(n))))


def error(call):
    try:
        call()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)


result = [summary(3, 9), span(2, 7), error(lambda: span(7, 2)), fill(4), error(lambda: fill(5))]
`

func TestNativeClassProtocols(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, classProtocolsProgram, `{}`)
		want := `["Stack(3, 9, 3) len=3 top=3 has_b=True same=True False", 5, ` +
			`"ValueError: __len__() should return >= 0", 4, "OverflowError: stack is full (4 items)"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"summary", "span", "fill"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}

// A class constant the program rebinds (`Limits.MAX = 3`) is not the one
// native code would read in place: the functions using the class stay Python.
const reboundClassConstant = `
class Limits:
    MAX = 10

    def __init__(self) -> None:
        self.used = 0


def room(n: int) -> int:
    return Limits.MAX - n


Limits.MAX = 3
result = room(1)
`

func TestNativeReboundClassConstantStaysPython(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, reboundClassConstant, `{}`)
		if string(resp.Value) != "2" {
			t.Fatalf("value %s, want 2 (trace %+v)", resp.Value, resp.Native)
		}
		if f := nativeEntry(t, resp, "room"); f.Status == "native" || !strings.Contains(f.Reason, "uses the global Limits") {
			t.Errorf("room: %+v", f)
		}
	})
}
