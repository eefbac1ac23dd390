package tracehtml

import (
	"reflect"
	"testing"
)

// Only real calls count: not a name in a string, a comment, an attribute or
// a definition; lines count through triple-quoted strings and continuations.
func TestCallSites(t *testing.T) {
	source := `a = lookup(key=1)  # lookup(key=2)
s = "lookup(" + 'fail(' + r"\"lookup("
doc = """
lookup(key=3)
"""
x = obj.lookup(key=4)
def fail(message):
    pass
b = [lookup (key=k) for k in range(3)]
c = echo(
    v=lookup(key=5), w=f"{a}")
fail(message=b'lookup(')
`
	got := callSites(source, map[string]bool{"lookup": true, "fail": true, "echo": true})
	want := map[string][]int{"lookup": {1, 9, 11}, "fail": {12}, "echo": {10}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
