package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// lateBindingProgram reads captures when the function runs, the ways typed
// code does: a nested def reading a local the loop keeps changing, a nested
// def in a loop, handlers stored in a loop that all see its last value, and
// key lambdas pinning the loop variable with a default, a nested def of
// several statements reading a parameter rebound before it runs, and
// lambdas with and without defaults in one table.
const lateBindingProgram = `
from typing import List, Tuple


def running_offsets(xs: List[int]) -> List[int]:
    total = 0

    def shifted(v: int) -> int:
        return v + total
    out = []
    for x in xs:
        out.append(shifted(x))
        total += x
    return out


def bumped(xs: List[int]) -> List[int]:
    out = []
    for step in range(1, 3):
        def bump(v: int) -> int:
            return v * step
        out.extend([bump(x) for x in xs])
    return out


def length_handlers(words: List[str]) -> List[int]:
    handlers = {}
    for w in words:
        handlers[w] = lambda x: x + len(w)
    return [h(1) for h in handlers.values()]


def best_per_column(rows: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    best = []
    for i in range(2):
        best.append(max(rows, key=lambda r, i=i: r[i]))
    return best


def clipped(xs: List[int], hi: int) -> List[int]:
    hi = max(hi, 0)

    def clip(v: int) -> int:
        if v > hi:
            return hi
        return v
    return [clip(x) for x in xs]


def passes(lo: int, xs: List[int]) -> List[bool]:
    checks = [lambda v: v >= lo, lambda v, m=2: v % m == 0]
    lo = lo + 1
    return [all(c(x) for c in checks) for x in xs]


result = [running_offsets([1, 2, 3]), bumped([1, 2]), length_handlers(["a", "bb", "ccc"]),
          best_per_column([(1, 2), (3, 1)]), clipped([1, 5], -3), passes(1, [1, 2, 4])]
`

func TestNativeClosuresReadCapturesWhenCalled(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, lateBindingProgram, `{}`)
		want := `[[1, 3, 6], [1, 2, 2, 4], [4, 4, 4], [[3, 1], [1, 2]], [0, 0], [false, true, true]]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"running_offsets", "bumped", "length_handlers", "best_per_column", "clipped", "passes"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
