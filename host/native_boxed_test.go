package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// boxedProgram munges JSON-like records as agent code does: Dict[str, Any]
// records, a bare list filled by a `-> None` helper, a Union parameter, a
// value returned as the very object passed in, and a CPython TypeError raised
// by a boxed operation, crossing back with its own message.
const boxedProgram = `
from typing import Any, Dict, List, Union


def summarize(records: List[Dict[str, Any]]) -> str:
    parts: List[str] = []
    for r in records:
        parts.append(f"{r.get('id', '?')}:{r.get('status', 'unknown')}")
    return ", ".join(parts)


def collect(dst: list, records: List[Dict[str, Any]], field: str) -> None:
    for r in records:
        if field in r:
            dst.append(r[field])


def as_float(x: Union[int, float]) -> float:
    return float(x) * 2


def identity(x: Any) -> Any:
    return x


def add(a: Any, b: Any) -> Any:
    return a + b


records = [{"id": 1, "status": "ok", "n": 2 ** 70}, {"status": "fail", "n": 2.5}, {"id": "日本"}]
found = []
collect(found, records, "n")
try:
    add(1, "x")
except TypeError as e:
    message = str(e)
text = "héllo" * 3
result = [summarize(records), found, as_float(3), as_float(0.25), identity(text) is text, message,
          add([1], ["a"]), type(summarize).__name__]
`

func TestNativeBoxedValuesRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, boxedProgram, `{}`)
		want := `["1:ok, ?:fail, 日本:unknown", [1180591620717411303424, 2.5], 6.0, 0.5, true, ` +
			`"unsupported operand type(s) for +: 'int' and 'str'", [1, "a"], "NativeFunction"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"summarize", "collect", "as_float", "identity", "add"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
