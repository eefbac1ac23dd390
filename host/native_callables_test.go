package host_test

import (
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// callablesProgram uses functions as values the way typed code does: a
// dispatch table of lambdas, a Callable helper given a closure, a key function
// passed on, and closures made in a loop that see the loop variable's last
// value. The helpers taking a Callable run natively inside their callers'
// modules; called from Python with a Python callable they stay Python.
const callablesProgram = `
from typing import Callable, List


def apply_all(f: Callable[[int], int], xs: List[int]) -> List[int]:
    return [f(x) for x in xs]


def top_by(words: List[str], key: Callable[[str], int]) -> List[str]:
    return sorted(words, key=key)[:2]


def calc(op: str, a: int, b: int) -> int:
    ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "//": lambda x, y: x // y}
    return ops[op](a, b)


def scaled(xs: List[int], k: int) -> List[int]:
    return apply_all(lambda x: x * k, xs)


def shortest(words: List[str]) -> List[str]:
    return top_by(words, len)


def late(n: int) -> List[int]:
    fs: List[Callable[[int], int]] = []
    for i in range(n):
        fs.append(lambda x: x + i)
    return [f(10) for f in fs]


try:
    calc("//", 1, 0)
except ZeroDivisionError as e:
    message = str(e)
result = [calc("+", 2, 3), calc("-", 2, 3), scaled([1, 2], 3), shortest(["ccc", "a", "bb"]), late(3), message,
          apply_all(str.upper, ["x"])]
`

func TestNativeFunctionValuesRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, callablesProgram, `{}`)
		want := `[5, -1, [3, 6], ["a", "bb"], [12, 12, 12], "integer division or modulo by zero", ["X"]]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"calc", "scaled", "shortest", "late"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
		// Given Python's own callable (str.upper), the helper ran as Python.
		if f := nativeEntry(t, resp, "apply_all"); f.Status == "native" || !strings.Contains(f.Reason, "Callable") {
			t.Errorf("apply_all: %+v", f)
		}
	})
}

// closuresProgram captures by value the ways typed code does: the default
// idiom in a loop and in a comprehension (each lambda keeps the value it was
// made with), and a closure returned by a factory to a native caller and to
// Python (native_closure_crossing_test.go tests the crossing further).
const closuresProgram = `
from typing import Callable, List


def make_adder(n: int) -> Callable[[int], int]:
    def add(x: int) -> int:
        return x + n
    return add


def adders(n: int) -> List[int]:
    fs: List[Callable[[int], int]] = []
    for i in range(n):
        fs.append(lambda x, i=i: x + i)
    return [f(10) for f in fs]


def scaled(n: int) -> List[int]:
    ms = [lambda x, i=i: x * i for i in range(n)]
    return [m(3) for m in ms]


def add_with(n: int, x: int) -> int:
    add = make_adder(n)
    n = 1000
    return add(x) + n


result = [adders(3), scaled(3), add_with(2, 5), make_adder(7)(1), make_adder.__qualname__]
`

func TestNativeClosuresCaptureByValue(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, closuresProgram, `{}`)
		want := `[[10, 11, 12], [0, 3, 6], 1007, 8, "make_adder"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"adders", "scaled", "add_with", "make_adder"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
