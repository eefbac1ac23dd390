package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The forged results of tests/security (forged_result_*.py): a child writes
// a result frame by hand, past a limit or claiming what only the host may
// say. Each must end with the exact status its file names (violation), as
// an ErrSandbox, without the host allocating what the frame announced; and
// the next execution works.
func TestForgedResultsEndAsTheirFilesSay(t *testing.T) {
	// Why each is refused: a forgery caught by the wrong check (or one
	// slipping past the right one) fails.
	because := map[string]string{
		"forged_result_60mib":             "exceeds the limit of 23068688 bytes", // the frame's header, before its payload
		"forged_result_deep":              "nests deeper than the result depth limit of 100",
		"forged_result_interrupt_limit":   `the interrupt "limit exceeded", which the host never sent`,
		"forged_result_interrupt_timeout": `the interrupt "timeout", which the host never sent`,
		"forged_result_invalid_utf8":      "not valid UTF-8",
		"forged_result_kind_limit":        `claims the outcome "limit", which only the host may report`,
		"forged_result_kind_request":      `claims the outcome "request", which only the host may report`,
		"forged_result_not_json":          "not a JSON object",
		"forged_result_stdout_over_limit": "captured stdout of 2097152 bytes exceeds the limit of 1048576 bytes",
	}
	files, err := filepath.Glob(filepath.Join("..", "tests", "security", "forged_result_*.py"))
	if err != nil || len(files) < 8 {
		t.Fatalf("expected the forged result programs under tests/security, found %d (%v)", len(files), err)
	}
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 2 * time.Second}))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".py")
		t.Run(name, func(t *testing.T) {
			source, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(source), "\n")
			expect, ok := strings.CutPrefix(first, "# expect: ")
			if !ok || expect != string(host.StatusViolation) {
				t.Fatalf("%s must expect violation, its first line is %q", name, first)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp, err := e.Execute(context.Background(), host.Request{Source: string(source)})
			runtime.ReadMemStats(&after)
			if resp == nil || resp.Status != host.StatusViolation {
				t.Fatalf("want status violation, got %s (err %v)", statusOf(resp), err)
			}
			if !errors.Is(err, host.ErrSandbox) || errors.Is(err, host.ErrBadRequest) || errors.Is(err, host.ErrLimit) {
				t.Fatalf("want an ErrSandbox, not the caller's or a limit's fault: %v", err)
			}
			if !strings.HasPrefix(resp.Error, "violation: ") || string(resp.Value) != "" {
				t.Fatalf("response error %q, value %s", resp.Error, resp.Value)
			}
			if want, ok := because[name]; !ok || !strings.Contains(resp.Error, want) {
				t.Fatalf("refused for the wrong reason (want %q): %s", want, resp.Error)
			}
			// The 60 MiB frame is refused by its header: the host allocates
			// a small fraction of what it announced.
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
				t.Fatalf("the host allocated %d MiB for a forged result", grown>>20)
			}
			next, err := e.Execute(context.Background(), host.Request{Source: "result = 6 * 7"})
			if err != nil || string(next.Value) != "42" {
				t.Fatalf("the next execution: %v, %+v", err, next)
			}
		})
	}
}

// In process the guest is no boundary, but its result is checked all the
// same: a program that reaches into bootstrap (here: its result encoder, for
// one execution) and returns a value nested past the depth limit ends as a
// violation, as it would in the sandbox, and the next execution works.
func TestInprocResultIsCheckedToo(t *testing.T) {
	e := newEngine(t)
	forger := `import sys
b = sys.modules['bootstrap']
honest = b._encode_result
def forged(value, max_bytes, max_depth):
    b._encode_result = honest
    return '[' * 200 + ']' * 200
b._encode_result = forged
result = 1`
	resp, err := e.Execute(context.Background(), host.Request{Source: forger})
	if resp == nil || resp.Status != host.StatusViolation || !errors.Is(err, host.ErrSandbox) {
		t.Fatalf("want violation, got %s (%v)", statusOf(resp), err)
	}
	if !strings.Contains(resp.Error, "nests deeper than the result depth limit of 100") {
		t.Fatalf("refused for the wrong reason: %s", resp.Error)
	}
	mustValue(t, e, "result = [[1]]", "{}", "[[1]]")
}

func statusOf(resp *host.Response) string {
	if resp == nil {
		return "no response"
	}
	return fmt.Sprintf("%s (error %.200q, value %.100s)", resp.Status, resp.Error, resp.Value)
}

// The host's checks must never refuse an honest guest: results, output and
// errors at and past the limits end as the program's own outcome, in both
// modes, never as a violation.
func TestHonestResultsAtTheLimitsAreNotViolations(t *testing.T) {
	limits := host.WithLimits(host.Limits{Timeout: 60 * time.Second, ResultBytes: 1000, ResultDepth: 5, StdoutBytes: 100})
	engines := map[string]*host.Engine{"inproc": newEngine(t, limits), "sandbox": newSandboxEngine(t, limits)}
	cases := []struct {
		source string
		status host.Status
	}{
		{"result = 'é' * 499", host.StatusOK},           // 1000 bytes with its quotes
		{"result = 'é' * 500", host.StatusLimit},        // 1002 bytes: 502 characters
		{"result = '\\ud800' * 200", host.StatusLimit},  // 200 characters, 1202 bytes escaped
		{"result = [[[[[1]]]]]", host.StatusOK},         // the 1 is at depth 5
		{"result = [[[[[[1]]]]]]", host.StatusLimit},    // at depth 6
		{"print('ü' * 500)\nresult = 1", host.StatusOK}, // captured output truncated to 100 bytes
		{"raise ValueError('m' * 100000)", host.StatusError},
		{"def f(n):\n    return f(n - 1) if n else 1 / 0\nf(900)", host.StatusError},
	}
	for mode, e := range engines {
		for _, c := range cases {
			resp, err := e.Execute(context.Background(), host.Request{Source: c.source})
			if resp == nil || resp.Status != c.status {
				t.Errorf("%s: %.40q: want %s, got %s (%v)", mode, c.source, c.status, statusOf(resp), err)
			}
		}
	}
}
