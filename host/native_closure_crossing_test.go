package host_test

import (
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// crossingProgram calls closure factories from Python, as typed code does:
// a nested def and lambdas returned under a Callable annotation, validation
// before the return, a parameter rebound before it (the closure reads the
// new value), keyword arguments, and CPython's own errors built from the
// closure's names. A factory capturing a list stays Python for Python's
// callers (CPython's closure holds the caller's list itself) and says why.
const crossingProgram = `
from typing import Callable, List


def make_adder(n: int) -> Callable[[int], int]:
    def add(x: int) -> int:
        return x + n
    return add


def make_operator(op: str) -> Callable[[int, int], int]:
    if op == "+":
        return lambda a, b: a + b
    if op == "//":
        return lambda a, b: a // b
    raise ValueError(f"unknown operator: {op!r}")


def make_shifter(n: int, by: int) -> Callable[[int], int]:
    n = n + by
    return lambda x: x - n


def make_contains(words: List[str]) -> Callable[[str], bool]:
    return lambda w: w in words


def error(call):
    try:
        call()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)


add5 = make_adder(5)
words = ["a"]
has = make_contains(words)
words.append("b")
result = [add5(1), add5(x=-7), add5(2 ** 70), add5.__qualname__, add5.__module__,
          make_operator("//")(7, b=2), make_operator("+").__qualname__, make_shifter(3, 4)(10),
          error(lambda: add5()), error(lambda: make_operator("//")(1, 0)), error(lambda: make_operator("%")),
          has("b")]
`

func TestNativeClosuresCrossIntoPython(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, crossingProgram, `{}`)
		want := `[6, -2, 1180591620717411303429, "make_adder.<locals>.add", "__main__", 3, ` +
			`"make_operator.<locals>.<lambda>", 3, ` +
			`"TypeError: make_adder.<locals>.add() missing 1 required positional argument: 'x'", ` +
			`"ZeroDivisionError: integer division or modulo by zero", "ValueError: unknown operator: '%'", true]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"make_adder", "make_operator", "make_shifter"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
		f := nativeEntry(t, resp, "make_contains")
		if f.Status == "native" || !strings.Contains(f.Reason, "make_contains() returns a closure that stays Python "+
			"for Python callers: its closure captures 'words', a List[str]: CPython's closure holds the caller's own object") {
			t.Errorf("make_contains: %+v", f)
		}
	})
}
