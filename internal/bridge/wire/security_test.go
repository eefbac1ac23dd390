package wire

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// The security suite: tests/security/*.py, one attack each, the expected
// outcome in the first line (`# expect: ...`). A secret is planted in this
// process's environment and in a file before the pool starts; it must never
// come back, whatever the outcome, and the next plain execution must work.
// Every program runs plainly here, whatever its `# mode:` (streams are the
// host's, fed by the engine-level runner). Programs with a `# native:` line
// are the engine's alone: their native crossing needs the host's compiler.
func TestSecuritySuite(t *testing.T) {
	root := filepath.Dir(filepath.Dir(guestBinaryDir(t)))
	files, err := filepath.Glob(filepath.Join(root, "tests", "security", "*.py"))
	if err != nil || len(files) < 40 {
		t.Fatalf("security suite: %d programs under %s (%v)", len(files), root, err)
	}
	secret := fmt.Sprintf("SPINE-SECRET-%d", time.Now().UnixNano())
	t.Setenv("SPINE_PLANTED_SECRET", secret)
	dir := t.TempDir()
	secretPath := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secretPath, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := NewPool(Options{Binary: guestBinary(t), MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() }) // after the parallel subtests
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".py")
		if source, err := os.ReadFile(file); err == nil && needsCompiler(source) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			source, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			expect := expectation(t, source)
			o := runSecurity(t, p, string(source), secretPath, deadline(source))
			got := classify(o)
			for _, part := range [][]byte{resultBytes(o.result), []byte(errText(o.err))} {
				if strings.Contains(string(part), secret) {
					t.Fatalf("the planted secret came back: %q", part)
				}
			}
			// `# expect: error` without a type (the old form) accepts any exception.
			if got != expect && !(expect == "error" && strings.HasPrefix(got, "error ")) {
				t.Fatalf("expected %s, got %s (err: %v; response: %s)", expect, got, o.err, responseText(o.result))
			}
			if v := mustValue(t, p, "result = 1 + 1"); v != "2" {
				t.Fatalf("the next plain execution returned %s", v)
			}
		})
	}
}

// guestBinaryDir is the repository's build dir parent: the binary lives at
// <root>/build/guest-c/sandbox/spine-guest unless SPINE_GUEST says otherwise,
// so the suite is found from the module root instead.
func guestBinaryDir(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "build", "x")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("cannot find the repository root")
		}
		dir = parent
	}
}

// expectation is the first line's `# expect: STATUS [ExceptionType]`.
func expectation(t *testing.T, source []byte) string {
	line, _ := bufio.NewReader(strings.NewReader(string(source))).ReadString('\n')
	expect, ok := strings.CutPrefix(strings.TrimSpace(line), "# expect: ")
	status, exception, typed := strings.Cut(expect, " ")
	if typed && (status != "error" || exception == "") {
		ok = false
	}
	switch status {
	case "violation", "error", "timeout", "memory", "output_limit", "crashed", "limit", "ok-no-secret":
	default:
		ok = false
	}
	if !ok {
		t.Fatalf("first line must be `# expect: violation|error|timeout|memory|output_limit|crashed|limit|ok-no-secret`, not %q", line)
	}
	return expect
}

// needsCompiler: the header has a `# native:` line.
func needsCompiler(source []byte) bool {
	for _, line := range strings.Split(string(source), "\n") {
		if !strings.HasPrefix(line, "#") {
			return false
		}
		if strings.HasPrefix(line, "# native: ") {
			return true
		}
	}
	return false
}

// deadline is 2 s, or what a `# deadline: D` line says: an attack that
// must end by a limit other than time (memory growth page-faults half a
// gigabyte) gets room for that on a loaded machine.
func deadline(source []byte) time.Duration {
	for _, line := range strings.SplitN(string(source), "\n", 4) {
		if text, ok := strings.CutPrefix(strings.TrimSpace(line), "# deadline: "); ok {
			if d, err := time.ParseDuration(text); err == nil {
				return d
			}
		}
	}
	return 2 * time.Second
}

func runSecurity(t *testing.T, p *Pool, source, secretPath string, timeout time.Duration) outcome {
	inputs, _ := json.Marshal(map[string]any{"secret_path": secretPath})
	req, _ := json.Marshal(map[string]any{"source": source, "inputs": json.RawMessage(inputs),
		"manifest": json.RawMessage(testManifest)})
	ctx, cancel := contextWithTimeout(timeout)
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{Tools: testTools(t), Limits: bridge.Limits{MaxToolCalls: 20}})
	defer s.Close()
	g, err := p.Acquire(s)
	if err != nil {
		t.Fatal(err)
	}
	result, err := g.Execute(req)
	g.Release()
	return outcome{result: result, err: err, session: s}
}

// classify names the terminal status of an outcome, as the host will.
func classify(o outcome) string {
	switch {
	case errors.Is(o.err, ErrViolation):
		return "violation"
	case errors.Is(o.err, ErrTimeout):
		return "timeout"
	case errors.Is(o.err, ErrMemory):
		return "memory"
	case errors.Is(o.err, ErrOutputLimit):
		return "output_limit"
	case errors.Is(o.err, ErrCrashed):
		return "crashed"
	case o.err != nil:
		return "host-error: " + o.err.Error()
	}
	if o.result.Interrupted == bridge.Timeout {
		return "timeout"
	}
	if o.session.LimitExceeded() != "" {
		return "limit"
	}
	var e envelope
	if json.Unmarshal(o.result.Response, &e) != nil {
		return "malformed response"
	}
	if e.Error != nil {
		exception, _, _ := strings.Cut(*e.Error, ":")
		return "error " + exception
	}
	return "ok-no-secret"
}

func resultBytes(r *bridge.Result) []byte {
	if r == nil {
		return nil
	}
	return append(append(append([]byte{}, r.Response...), r.Stdout...), r.Stderr...)
}

func responseText(r *bridge.Result) string {
	if r == nil {
		return "none"
	}
	return clip(r.Response)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
