package host_test

import (
	"fmt"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// boxedProgram munges JSON-like records as agent code does: Dict[str, Any]
// records, a bare list filled by a `-> None` helper, a Union parameter, a
// value returned as the very object passed in, and a CPython TypeError raised
// by a boxed operation, crossing back with its own message. Functions taking
// containers of boxed values keep CPython's version for Python callers
// (natively they run slower than CPython); report, typed, calls them natively.
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


def report(ids: List[int]) -> str:
    records: List[Dict[str, Any]] = []
    for i in ids:
        record: Dict[str, Any] = {"id": i}
        if i % 2:
            record["status"] = "ok"
        records.append(record)
    found: list = []
    collect(found, records, "status")
    return f"{summarize(records)} ({len(found)} with a status)"


records = [{"id": 1, "status": "ok", "n": 2 ** 70}, {"status": "fail", "n": 2.5}, {"id": "日本"}]
found = []
collect(found, records, "n")
try:
    add(1, "x")
except TypeError as e:
    message = str(e)
text = "héllo" * 3
result = [summarize(records), found, as_float(3), as_float(0.25), identity(text) is text, message,
          add([1], ["a"]), type(summarize).__name__, type(add).__name__, report([7, 2 ** 40, 9]),
          type(report).__name__]
`

// boxedContainers is why a function taking boxed values in containers stays
// Python for Python callers (guest/hot.py).
const boxedContainers = "takes or returns boxed values in containers (%s): called from Python it runs " +
	"slower natively than in CPython; native callers still call it natively"

func TestNativeBoxedValuesRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, boxedProgram, `{}`)
		want := `["1:ok, ?:fail, 日本:unknown", [1180591620717411303424, 2.5], 6.0, 0.5, true, ` +
			`"unsupported operand type(s) for +: 'int' and 'str'", [1, "a"], "function", "NativeFunction", ` +
			`"7:ok, 1099511627776:unknown, 9:ok (2 with a status)", "NativeFunction"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		// Single boxed values (Any, Union) cross as the objects themselves: native for Python callers.
		for _, name := range []string{"as_float", "identity", "add"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" || f.Fallbacks != 0 {
				t.Errorf("%s: %+v", name, f)
			}
		}
		for name, containers := range map[string]string{"summarize": "List[Dict[str, Any]]",
			"collect": "list, List[Dict[str, Any]]"} {
			f := nativeEntry(t, resp, name)
			if f.Status != "python" || f.Reason != fmt.Sprintf(boxedContainers, containers) {
				t.Errorf("%s: %+v", name, f)
			}
		}
		// report's module holds summarize and collect: they ran natively, no call fell back to Python.
		if f := nativeEntry(t, resp, "report"); f.Status != "native" || f.Fallbacks != 0 {
			t.Errorf("report: %+v", f)
		}
	})
}
