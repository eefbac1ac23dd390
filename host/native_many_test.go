package host_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// manyFunctionsProgram has n eligible functions and two that the compiler
// refuses after the guest's screen passed them: one the frontend does not
// support, and one with a lambda that has a keyword-only parameter (native
// code binds a lambda's parameters only by position).
func manyFunctionsProgram(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "def f%d(x: int) -> int:\n    return x * %d + %d\n\n", i, i+1, i)
	}
	b.WriteString("def unsupported(x: int) -> int:\n    return x.bit_length()\n\n")
	b.WriteString("def lambda_keyword_only(x: int) -> int:\n    f = lambda v, *, k=1: v + k\n    return f(x, k=2) - 2\n\n")
	fmt.Fprintf(&b, "fs = [f%s]\n", joinRange(n, ", f"))
	b.WriteString("result = [sum(f(2) for f in fs), sum(type(f).__name__ == 'NativeFunction' for f in fs), " +
		"type(unsupported).__name__, [lambda_keyword_only(3)]]\n")
	return b.String()
}

func joinRange(n int, sep string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprint(i)
	}
	return strings.Join(parts, sep)
}

// Every eligible function of a program gets compiled, however many there
// are, and a function that does not compile costs the others nothing.
func TestNativeManyFunctionsAllCompile(t *testing.T) {
	const n = 40
	// Forty-two cold compilations: a deadline for a loaded machine, not a bound.
	e := nativeEngine(t, host.Sandbox, t.TempDir(), host.WithLimits(host.Limits{Timeout: 10 * time.Minute}))
	resp := execNative(t, e, host.NativeEager, manyFunctionsProgram(n), `{}`)
	sum := 0
	for i := 0; i < n; i++ {
		sum += 2*(i+1) + i
	}
	if want := fmt.Sprintf(`[%d, %d, "function", [3]]`, sum, n); string(resp.Value) != want {
		t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
	}
	for i := 0; i < n; i++ {
		if f := nativeEntry(t, resp, fmt.Sprintf("f%d", i)); f.Status != "native" {
			t.Fatalf("f%d: %+v", i, f)
		}
	}
	// Again in auto mode: every module is a cache hit, handed over at the start
	// although one answer carries at most so many modules, and switches at its def.
	resp = execNative(t, e, host.NativeAuto, manyFunctionsProgram(n), `{}`)
	if want := fmt.Sprintf(`[%d, %d, "function", [3]]`, sum, n); string(resp.Value) != want {
		t.Fatalf("auto: value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
	}
	for i := 0; i < n; i++ {
		if f := nativeEntry(t, resp, fmt.Sprintf("f%d", i)); f.Status != "native" || f.Cache != "hit" || f.SwitchedAfter != 0 {
			t.Fatalf("auto: f%d: %+v", i, f)
		}
	}
	if f := nativeEntry(t, resp, "unsupported"); f.Status != "python" || !strings.Contains(f.Reason, "bit_length") {
		t.Fatalf("unsupported: %+v", f)
	}
	if f := nativeEntry(t, resp, "lambda_keyword_only"); f.Status != "python" || !strings.Contains(f.Reason, "keyword-only parameters") {
		t.Fatalf("lambda_keyword_only: %+v", f)
	}
}
