package host_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// formattingProgram uses what typed code reaches for in reports and top-k
// loops: f-string format specs, divmod, heapq and a float sum of a
// generator, the empty one included (CPython's int 0).
const formattingProgram = `import heapq
from typing import List, Tuple


def row(name: str, n: int, x: float) -> str:
    return f"{name:<8}|{n:>6,d}|{x:10.3f}|{x:.2e}|{n:#x}|{n!r}"


def digits(n: int) -> List[int]:
    out: List[int] = []
    n = abs(n)
    while n:
        n, r = divmod(n, 10)
        out.append(r)
    return out[::-1]


def top_k(xs: List[int], k: int) -> List[int]:
    h: List[int] = []
    for x in xs:
        if len(h) < k:
            heapq.heappush(h, x)
        elif x > h[0]:
            heapq.heapreplace(h, x)
    return sorted(h, reverse=True)


def dot(a: List[float], b: List[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


xs = [(i * 7919) % 1000 - 500 for i in range(200)]
result = [row("héllo", 1234567, -3.14159), row("日本", -5, 2.5e-7), digits(9070061), top_k(xs, 5),
          dot([1.5, 2.0], [2.0, -0.25]), dot([], []), type(row).__name__, type(top_k).__name__]
`

// Format specs, divmod, heapq and float sums run natively, in the sandbox
// as in process, with CPython's text and values (the expected value is
// /usr/bin/python3's, with its functions named NativeFunction here).
func TestNativeFormattingAndHeapsRunNative(t *testing.T) {
	want := `["héllo   |1,234,567|    -3.142|-3.14e+00|0x12d687|1234567", "日本      |    -5|     0.000|2.50e-07|-0x5|-5", ` +
		`[9, 0, 7, 0, 0, 6, 1], [487, 484, 481, 478, 475], 2.5, 0, "NativeFunction", "NativeFunction"]`
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, formattingProgram, `{}`)
		var got, expected any
		if err := json.Unmarshal(resp.Value, &got); err != nil {
			t.Fatalf("value %s: %v", resp.Value, err)
		}
		if err := json.Unmarshal([]byte(want), &expected); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, expected) {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		// dot([], []) is CPython's own int 0: the one explicit fallback.
		for name, fallbacks := range map[string]int{"row": 0, "digits": 0, "top_k": 0, "dot": 1} {
			if f := nativeEntry(t, resp, name); f.Status != "native" || f.Fallbacks != fallbacks {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
