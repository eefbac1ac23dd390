package host_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// liveWriter records what it receives and signals each line.
type liveWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
	lines  chan string
	block  chan struct{} // non-nil: every Write blocks on it
}

func (w *liveWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	w.buf.Write(p)
	w.mu.Unlock()
	if w.lines != nil {
		for _, line := range strings.SplitAfter(string(p), "\n") {
			if strings.HasSuffix(line, "\n") {
				w.lines <- line
			}
		}
	}
	if w.block != nil {
		<-w.block
	}
	return len(p), nil
}

func (w *liveWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// Request.Stdout and Stderr receive output while the program runs: the
// tool `seen` returns only once the writer has the line printed before it.
func TestLiveOutput(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		stdout := &liveWriter{lines: make(chan string, 16)}
		stderr := &liveWriter{}
		seen := host.Func("seen", func(ctx context.Context, a struct {
			Line string `json:"line"`
		}) (bool, error) {
			select {
			case line := <-stdout.lines:
				return line == a.Line, nil
			case <-ctx.Done():
				return false, ctx.Err()
			}
		})
		e := m.engine(t, host.WithTools(seen))
		source := "import sys\nprint('first')\nok = seen(line='first\\n')\nprint('err', file=sys.stderr)\nprint('second', end='')\nresult = ok"
		resp, err := e.Execute(context.Background(), host.Request{Source: source, Stdout: stdout, Stderr: stderr})
		if err != nil || string(resp.Value) != "true" {
			t.Fatalf("the line did not arrive before the tool call: %v %s %s", err, resp.Value, errorOf(resp))
		}
		if stdout.String() != "first\nsecond" || resp.Stdout != "first\nsecond" || stderr.String() != "err\n" || resp.Stderr != "err\n" {
			t.Fatalf("writer %q response %q; stderr writer %q response %q", stdout.String(), resp.Stdout, stderr.String(), resp.Stderr)
		}

		// Capped like the captured output, whatever is flushed.
		capped := &liveWriter{}
		resp, err = e.Execute(context.Background(), host.Request{Source: "import sys\nfor i in range(50):\n    print('x' * 10, flush=True)",
			Stdout: capped, Limits: host.Limits{StdoutBytes: 25}})
		if err != nil || capped.String() != resp.Stdout || len(resp.Stdout) != 25 || !resp.StdoutTruncated {
			t.Fatalf("cap: %v writer %q response %q", err, capped.String(), resp.Stdout)
		}
	})
}

// A writer that blocks holds the program until its deadline, and Execute
// still returns; no write starts after it has.
func TestLiveOutputBlockedWriter(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t)
		w := &liveWriter{block: make(chan struct{})}
		defer close(w.block)
		resp, err := e.Execute(context.Background(), host.Request{Source: "print('a')\nprint('b')\nwhile True:\n    pass",
			Stdout: w, Limits: host.Limits{Timeout: 200 * time.Millisecond}})
		if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
			t.Fatalf("%v %s", err, errorOf(resp))
		}
		w.mu.Lock()
		writes := w.writes
		w.mu.Unlock()
		if writes != 1 {
			t.Fatalf("%d writes started on a writer that never returned", writes)
		}
		mustValue(t, e, "result = 1", `{}`, `1`)
	})
}
