package host_test

import (
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// setsAndLambdasProgram returns a set natively (str members: their hashes
// are this guest process's own, randomised) and maps with a lambda; the
// module-level code, which stays CPython, builds the same set by hand.
const setsAndLambdasProgram = `from typing import List, Set


def without(words: List[str], drop: List[str]) -> Set[str]:
    kept = set(words)
    for w in drop:
        kept.discard(w)
    return kept


def scaled(xs: List[int], k: int) -> List[int]:
    scale = lambda v: v * k
    return list(map(scale, xs))


words = ["w%d" % i for i in range(40)] + ["héllo", "日本", "😀", ""]
drop = words[::3]
s = without(words, drop)
ref = set(words)
for w in drop:
    ref.discard(w)
s.add("new")
ref.add("new")
result = [list(s) == list(ref), s.pop() == ref.pop(), len(s), scaled([1, -2, 3], 4),
          type(without).__name__, type(scaled).__name__]
`

// A set returned by native code iterates, grows and pops as the one CPython
// builds, in the sandbox, and a lambda given to map is compiled with its caller.
func TestNativeSetsAndLambdasInTheSandbox(t *testing.T) {
	e := nativeEngine(t, host.Sandbox, t.TempDir(), host.WithLimits(host.Limits{Timeout: 5 * time.Minute}))
	resp := execNative(t, e, host.NativeEager, setsAndLambdasProgram, `{}`)
	want := `[true, true, 29, [4, -8, 12], "NativeFunction", "NativeFunction"]`
	if string(resp.Value) != want {
		t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
	}
	for _, name := range []string{"without", "scaled"} {
		if f := nativeEntry(t, resp, name); f.Status != "native" || f.Fallbacks != 0 {
			t.Fatalf("%s: %+v", name, f)
		}
	}
}
