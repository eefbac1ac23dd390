package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// typedProgram is typed code as its authors write it: typing names, math,
// a module constant, a class, validation with raise, a `-> None` helper that
// sorts the caller's list in place, keyword arguments and try/except.
const typedProgram = `
import math
from typing import Dict, List, Tuple

LIMIT = 10 ** 3


class Vec:
    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def norm(self) -> float:
        return math.sqrt(self.x * self.x + self.y * self.y)


def check(x: int) -> None:
    if x > LIMIT:
        raise ValueError(f"{x} is over {LIMIT}")


def swap(a: List[int], i: int, j: int) -> None:
    a[i], a[j] = a[j], a[i]


def bubble_sort(a: List[int]) -> None:
    for n in range(len(a) - 1, 0, -1):
        for i in range(n):
            if a[i] > a[i + 1]:
                swap(a, i, i + 1)


def summary(values: List[int], *, scale: float = 1.0) -> Tuple[int, float]:
    for v in values:
        check(v)
    return sum(values) % LIMIT, Vec(3.0, 4.0).norm() * scale


def parse_all(words: List[str]) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for w in words:
        try:
            out[w] = int(w)
        except ValueError:
            out[w] = -1
    return out


xs = [5, 3, 9, 1, 999]
bubble_sort(xs)
try:
    summary([1001])
except ValueError as e:
    message = str(e)
result = [xs, summary(xs, scale=2.0), message, parse_all(["12", "x", "-3"]), check(1)]
`

func TestNativeTypedCodeRunsNativeWithPythonsAnswers(t *testing.T) {
	cache := t.TempDir() // shared: the second isolation finds the modules cached
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, cache)
		resp := execNative(t, e, host.NativeEager, typedProgram, `{}`)
		want := `[[1, 3, 5, 9, 999], [17, 10.0], "1001 is over 1000", {"12": 12, "x": -1, "-3": -3}, null]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"check", "swap", "bubble_sort", "summary", "parse_all"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
