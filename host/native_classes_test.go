package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// classesProgram uses classes as typed code does: a base class whose method
// subclasses override, called through a base-typed reference; super().__init__;
// isinstance on subclasses; a linked list of Optional['Node'] ended by None;
// and a field read through None, which native code hands back to CPython
// for its own AttributeError.
const classesProgram = `from typing import List, Optional


class Shape:
    def __init__(self, name: str) -> None:
        self.name = name

    def area(self) -> float:
        return 0.0


class Rect(Shape):
    def __init__(self, w: float, h: float) -> None:
        super().__init__("rect")
        self.w = w
        self.h = h

    def area(self) -> float:
        return self.w * self.h


class Square(Rect):
    def __init__(self, side: float) -> None:
        Rect.__init__(self, side, side)
        self.name = "square"


class Node:
    def __init__(self, value: int, next: Optional['Node']) -> None:
        self.value = value
        self.next = next


def total_area(sides: List[float]) -> float:
    shapes: List[Shape] = [Shape("dot")]
    for s in sides:
        shapes.append(Square(s) if s > 2 else Rect(s, 2.0))
    total = 0.0
    for sh in shapes:
        total += sh.area()
    return total


def count_squares(sides: List[float]) -> int:
    n = 0
    for s in sides:
        sh: Shape = Square(s) if s > 2 else Rect(s, 1.0)
        if isinstance(sh, Square):
            n += 1
    return n


def list_sum(n: int) -> int:
    head: Optional[Node] = None
    for i in range(n):
        head = Node(i, head)
    total = 0
    while head is not None:
        total += head.value
        head = head.next
    return total


def second_value(n: int) -> int:
    head: Optional[Node] = None
    for i in range(n):
        head = Node(i, head)
    return head.next.value


try:
    second_value(1)
except AttributeError as e:
    message = str(e)
result = [total_area([1.0, 3.0]), count_squares([1.0, 3.0, 4.0]), list_sum(100), second_value(3), message,
          type(total_area).__name__]
`

func TestNativeClassesWithInheritanceRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, classesProgram, `{}`)
		want := `[11.0, 2, 4950, 1, "'NoneType' object has no attribute 'value'", "NativeFunction"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"total_area", "count_squares", "list_sum", "second_value"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
