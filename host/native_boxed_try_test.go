package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// boxedTryProgram validates records as agent code does: a helper catching
// KeyError and (TypeError, ValueError) as e from CPython's own operations on
// an Any record, a user type whose __getitem__ raises an exception no clause
// takes (it crosses back as it was raised), and a typed List[int] handed to a
// helper declared with a bare `list`, whose ZeroDivisionError the caller catches:
// natively that argument would be copied into CPython objects on every call,
// slower than CPython, so the caller keeps CPython's version and says why.
const boxedTryProgram = `
from typing import Any, List


def parse_age(record: Any) -> Any:
    try:
        age = int(record["age"])
    except KeyError:
        return "no age"
    except (TypeError, ValueError) as e:
        return f"bad age: {e}"
    if age < 0:
        return "negative"
    return age


def mean(xs: list) -> Any:
    total: Any = 0
    for x in xs:
        total = total + x
    return total / len(xs)


def mean_score(scores: List[int]) -> Any:
    try:
        return mean(scores)
    except ZeroDivisionError as e:
        return str(e)


class Strict:
    def __getitem__(self, key):
        raise LookupError(f"no {key} here")


try:
    parse_age(Strict())
except LookupError as e:
    unmatched = [type(e).__name__, str(e)]
result = [parse_age({"age": "41"}), parse_age({}), parse_age({"age": "x1"}), parse_age({"age": None}),
          parse_age(5), parse_age({"age": -3}), mean_score([1, 2, 4]), mean_score([]), unmatched]
`

func TestNativeTryTakesCPythonsExceptions(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, boxedTryProgram, `{}`)
		want := `[41, "no age", "bad age: invalid literal for int() with base 10: 'x1'", ` +
			`"bad age: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'", ` +
			`"bad age: 'int' object is not subscriptable", "negative", 2.3333333333333335, "division by zero", ` +
			`["LookupError", "no age here"]]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		if f := nativeEntry(t, resp, "parse_age"); f.Status != "native" || f.Fallbacks != 0 {
			t.Errorf("parse_age: %+v", f)
		}
		copies := "it passes a typed container to mean(), whose parameter holds boxed values: natively every " +
			"call copies it into CPython objects, slower than in CPython; native callers still call it natively"
		if f := nativeEntry(t, resp, "mean_score"); f.Status != "python" || f.Reason != copies {
			t.Errorf("mean_score: %+v", f)
		}
	})
}
