package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// printProgram prints from typed functions between the program's own prints:
// a table helper, a progress loop with an early return, a line printed before
// an int64 overflow (CPython runs that call again from the start: the line
// must appear once), and one before a raise the program catches.
const printProgram = `
from typing import List


def table(rows: List[List[int]]) -> None:
    for row in rows:
        print("|".join(str(x).rjust(4) for x in row))


def first_over(xs: List[int], limit: int) -> int:
    for i, x in enumerate(xs):
        print(f"checking {i}: {x}", end="; ")
        if x > limit:
            print("found")
            return i
    print("none")
    return -1


def cube(x: int) -> int:
    print("cubing", x, sep=" ")
    return x * x * x


def checked(x: int) -> int:
    print("checking", x)
    if x < 0:
        raise ValueError(f"negative: {x}")
    return x


print("start")
table([[1, 2, 3], [40, 50, 60]])
found = first_over([3, 9, 27], 5)
print("between", found)
small = cube(1000)
big = cube(3_000_000)
try:
    checked(-2)
except ValueError as e:
    print("caught", e)
print("end", [0.1 + 0.2, None])
result = [found, small, big]
`

func TestNativePrintMatchesCPython(t *testing.T) {
	const want = "start\n   1|   2|   3\n  40|  50|  60\nchecking 0: 3; checking 1: 9; found\nbetween 1\n" +
		"cubing 1000\ncubing 3000000\nchecking -2\ncaught negative: -2\nend [0.30000000000000004, None]\n"
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		outputs := map[host.NativeMode]string{}
		for _, mode := range []host.NativeMode{host.NativeOff, host.NativeEager} {
			var live bytes.Buffer
			resp, err := e.Execute(context.Background(), host.Request{Source: printProgram, Inputs: json.RawMessage(`{}`),
				Native: mode, Stdout: &live})
			if err != nil {
				t.Fatalf("%s: Execute: %v (%s)", mode, err, errorOf(resp))
			}
			if string(resp.Value) != `[1, 1000000000, 27000000000000000000]` || live.String() != resp.Stdout {
				t.Fatalf("%s: value %s, live output %q, stdout %q", mode, resp.Value, live.String(), resp.Stdout)
			}
			outputs[mode] = resp.Stdout
			if mode == host.NativeEager {
				for _, name := range []string{"table", "first_over", "cube", "checked"} {
					if f := nativeEntry(t, resp, name); f.Status != "native" {
						t.Errorf("%s: %+v", name, f)
					}
				}
				// The overflowing cube and the raising check ran in CPython, from the start.
				for _, name := range []string{"cube", "checked"} {
					if f := nativeEntry(t, resp, name); f.Fallbacks != 1 {
						t.Errorf("%s: %+v", name, f)
					}
				}
			}
		}
		if outputs[host.NativeOff] != want || outputs[host.NativeEager] != want {
			t.Fatalf("stdout off %q, eager %q, want %q", outputs[host.NativeOff], outputs[host.NativeEager], want)
		}
	})
}
