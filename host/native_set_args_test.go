package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// setArgsProgram changes sets it is given, as `-> None` helpers do: marks
// words seen, threads a visited set through a recursive DFS, and removes
// members until one is missing (KeyError half way: CPython runs that call from
// the start on the untouched set). The module-level code,
// which stays CPython, does the same to a twin set built the same way (the
// same adds and discards, so the same table with dummies) and compares.
const setArgsProgram = `from typing import List, Set, Tuple


def mark_seen(seen: Set[str], words: List[str]) -> None:
    for w in words:
        if w not in seen:
            seen.add(w)


def visit(node: int, edges: List[Tuple[int, int]], visited: Set[int]) -> None:
    visited.add(node)
    for a, b in edges:
        if a == node and b not in visited:
            visit(b, edges, visited)


def remove_each(s: Set[int], xs: List[int]) -> None:
    for x in xs:
        s.remove(x)


def grown():
    words = ["w%d" % i for i in range(40)] + ["héllo", "日本", "😀", ""]
    s = set(words)
    for w in words[::3]:
        s.discard(w)
    return s


seen, ref = grown(), grown()
same = seen
new = ["new", "w3", "w4", "x", "日本"]
mark_seen(seen, new)
for w in new:
    if w not in ref:
        ref.add(w)
marked = [seen is same, list(seen) == list(ref), seen.pop() == ref.pop(), len(seen)]

visited = {100, -1}
visit(0, [(0, 1), (1, 2), (2, 0), (2, 7), (5, 6)], visited)

nums = set(range(50))
for x in range(0, 50, 4):
    nums.discard(x)
try:
    remove_each(nums, [1, 2, 4, 3])
    message = "no error"
except KeyError as e:
    message = repr(e)
result = marked + [sorted(visited), message, len(nums), 1 in nums, 3 in nums, type(mark_seen).__name__]
`

// A `-> None` helper that changes a set argument runs natively and the caller's
// own set object ends with CPython's members and order, also after a KeyError half way.
func TestNativeSetArgumentsChangeTheCallersSet(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, setArgsProgram, `{}`)
		want := `[true, true, true, 31, [-1, 0, 1, 2, 7, 100], "KeyError(4)", 35, false, true, "NativeFunction"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		// The KeyError half way is CPython's own run from the start (nothing copied back natively).
		for name, fallbacks := range map[string]int{"mark_seen": 0, "visit": 0, "remove_each": 1} {
			if f := nativeEntry(t, resp, name); f.Status != "native" || f.Fallbacks != fallbacks {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
