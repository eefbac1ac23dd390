package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Request.Limits tighten the engine's limits for one request, never loosen
// them, and the next request has the engine's again.
func TestRequestLimitsOnlyTighten(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t, host.WithLimits(host.Limits{ToolCalls: 3}))
		ctx := context.Background()
		threeCalls := "result = [lookup(key=1), lookup(key=2), lookup(key=3)]"
		resp, err := e.Execute(ctx, host.Request{Source: threeCalls, Limits: host.Limits{ToolCalls: 2}})
		if !errors.Is(err, host.ErrLimit) || resp.Status != host.StatusLimit || !strings.Contains(resp.Error, "tool call limit of 2") {
			t.Fatalf("tighter: %v %s", err, errorOf(resp))
		}
		resp, err = e.Execute(ctx, host.Request{Source: threeCalls + "\nlookup(key=4)", Limits: host.Limits{ToolCalls: 100}})
		if !errors.Is(err, host.ErrLimit) || !strings.Contains(resp.Error, "tool call limit of 3") {
			t.Fatalf("looser must be ignored: %v %s", err, errorOf(resp))
		}
		mustValue(t, e, threeCalls, `{}`, `[7, 14, 21]`)

		resp, err = e.Execute(ctx, host.Request{Source: "print('x' * 100)", Limits: host.Limits{StdoutBytes: 10}})
		if err != nil || resp.Stdout != "xxxxxxxxxx" || !resp.StdoutTruncated {
			t.Fatalf("stdout: %v %q %v", err, resp.Stdout, resp.StdoutTruncated)
		}
		resp, err = e.Execute(ctx, host.Request{Source: "while True:\n    pass", Limits: host.Limits{Timeout: 100 * time.Millisecond}})
		if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
			t.Fatalf("timeout: %v %s", err, errorOf(resp))
		}
		resp, err = e.Execute(ctx, host.Request{Source: "result = [[[1]]]", Limits: host.Limits{ResultDepth: 2}})
		if !errors.Is(err, host.ErrLimit) || resp.Status != host.StatusLimit {
			t.Fatalf("result depth: %v %s", err, errorOf(resp))
		}
		resp, err = e.Execute(ctx, host.Request{Source: "result = 1", Limits: host.Limits{HostBytes: 100}})
		if !errors.Is(err, host.ErrBadRequest) || resp != nil {
			t.Fatalf("unworkable limits: %v", err)
		}
	})
}

// A stream's Finish runs within the request's tighter timeout.
func TestRequestLimitsBoundAStream(t *testing.T) {
	e := engineIn(t, host.Inproc)
	s, err := e.Stream(context.Background(), host.Request{Limits: host.Limits{Timeout: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	s.Feed([]byte("while True:\n    pass\n"))
	resp, err := s.Finish()
	if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
		t.Fatalf("%v %s", err, errorOf(resp))
	}
}

// Request.Name is the program's file in its traceback and syntax errors;
// the deadline still stops a named program.
func TestRequestNameInTracebacks(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t)
		ctx := context.Background()
		for _, plm := range []bool{false, true} {
			resp, err := e.Execute(ctx, host.Request{Name: "agent/plan.py", PLM: plm,
				Source: "def f():\n    raise ValueError('x')\nf()"})
			if !errors.Is(err, host.ErrGuest) || resp.Line != 2 ||
				!strings.Contains(resp.Traceback, `File "agent/plan.py", line 2, in f`) {
				t.Fatalf("plm=%v: %v line %d traceback %q", plm, err, resp.Line, resp.Traceback)
			}
		}
		resp, _ := e.Execute(ctx, host.Request{Name: "agent/plan.py", Source: "x = (1,\n"})
		if resp.Error != "SyntaxError: '(' was never closed" || resp.Line != 1 {
			t.Fatalf("syntax error: %q line %d", resp.Error, resp.Line)
		}
		resp, _ = e.Execute(ctx, host.Request{Source: "raise KeyError('k')"})
		if !strings.Contains(resp.Traceback, `File "<spine>", line 1, in <module>`) {
			t.Fatalf("default name: %q", resp.Traceback)
		}
		resp, err := e.Execute(ctx, host.Request{Name: "loop.py", Source: "while True:\n    pass",
			Limits: host.Limits{Timeout: 100 * time.Millisecond}})
		if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
			t.Fatalf("a named program must still meet its deadline: %v %s", err, errorOf(resp))
		}
		for _, bad := range []string{"a\nb", `a"b`, strings.Repeat("x", 257)} {
			if _, err := e.Execute(ctx, host.Request{Name: bad, Source: "result = 1"}); !errors.Is(err, host.ErrBadRequest) {
				t.Errorf("name %q: %v", bad, err)
			}
		}
	})
}
