package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// optionalProgram uses Optional values and tuples of any length as typed code
// does: a `= None` default, `is None` tests, a None result, a tuple[int, ...]
// parameter, a list passed where the tuple is annotated (CPython runs that
// call) and a None used where an int is needed (CPython raises its TypeError).
const optionalProgram = `
from typing import List, Optional, Tuple


def find(xs: List[int], target: int, start: Optional[int] = None) -> Optional[int]:
    i = 0 if start is None else start
    while i < len(xs):
        if xs[i] == target:
            return i
        i += 1
    return None


def shape_size(shape: Tuple[int, ...]) -> int:
    if any(d < 0 for d in shape):
        raise ValueError(f"bad shape of {len(shape)} dimensions")
    size = 1
    for d in shape:
        size *= d
    return size


def add(a: Optional[int], b: int) -> int:
    return a + b


try:
    add(None, 1)
except TypeError as e:
    message = str(e)
result = [find([4, 5, 6], 6), find([4, 5, 6], 4, start=1), find([], 1), shape_size((2, 3, -0, 4)[:2]),
          shape_size(()), shape_size([2, 2]), message, add(2, 3), type(find).__name__]
`

func TestNativeOptionalAndVariableTuplesRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, optionalProgram, `{}`)
		want := `[2, null, null, 6, 1, 4, "unsupported operand type(s) for +: 'NoneType' and 'int'", 5, "NativeFunction"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"find", "shape_size", "add"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
