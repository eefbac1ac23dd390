package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// counter is an effectful tool that counts its runs.
func counter(runs *atomic.Int32) host.Tool {
	return host.NewTool(host.ToolSpec{Name: "count"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		runs.Add(1)
		return json.RawMessage(`1`), nil
	})
}

// expectContextError checks an Execute failure for an ended context: the
// kind errors.Is matches (and the one it must not), the status, and the
// one prefix of each message.
func expectContextError(t *testing.T, what string, resp *host.Response, err error, reason bridge.Reason) {
	t.Helper()
	var exec *host.ExecError
	if !errors.As(err, &exec) {
		t.Fatalf("%s: err %T %v, want *host.ExecError", what, err, err)
	}
	timeout, deadline, cancelled := errors.Is(err, host.ErrTimeout), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled)
	switch reason {
	case bridge.Timeout:
		if !timeout || !deadline || cancelled || resp == nil || resp.Status != host.StatusTimeout ||
			!strings.HasPrefix(err.Error(), "spine: execution timed out: ") || !strings.HasPrefix(resp.Error, "TimeoutError: ") ||
			strings.Contains(strings.TrimPrefix(resp.Error, "TimeoutError: "), "TimeoutError") {
			t.Fatalf("%s: err %q (timeout %v, deadline %v, cancelled %v), response %q", what, err, timeout, deadline, cancelled, errorOf(resp))
		}
	case bridge.Cancelled:
		if timeout || deadline || !cancelled || resp == nil || resp.Status != host.StatusCancelled ||
			!strings.HasPrefix(err.Error(), "context canceled: ") || !strings.HasPrefix(resp.Error, "Cancelled: ") ||
			strings.Contains(strings.TrimPrefix(err.Error(), "context canceled: "), "context canceled") {
			t.Fatalf("%s: err %q (timeout %v, deadline %v, cancelled %v), response %q", what, err, timeout, deadline, cancelled, errorOf(resp))
		}
	}
}

// A context that is already done runs nothing: no guest, no tool, for
// Execute (plain and PLM) and Stream; the error says which way it ended.
func TestDoneContextRunsNothing(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		var runs atomic.Int32
		e := engineIn(t, isolation, host.WithTools(counter(&runs)))
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		expired, stop := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer stop()
		for _, c := range []struct {
			ctx    context.Context
			reason bridge.Reason
		}{{cancelled, bridge.Cancelled}, {expired, bridge.Timeout}} {
			for _, plm := range []bool{false, true} {
				resp, err := e.Execute(c.ctx, host.Request{Source: "count()\nresult = lookup(key=1)", PLM: plm})
				expectContextError(t, "Execute", resp, err, c.reason)
				if len(resp.Calls) != 0 || resp.Stdout != "" || !strings.HasSuffix(resp.Error, "the context ended before the execution started; nothing ran") {
					t.Fatalf("something ran: %+v", resp)
				}
			}
			s, err := e.Stream(c.ctx, host.Request{})
			var exec *host.ExecError
			if s != nil || !errors.As(err, &exec) || errors.Is(err, context.Canceled) != (c.reason == bridge.Cancelled) ||
				errors.Is(err, host.ErrTimeout) != (c.reason == bridge.Timeout) {
				t.Fatalf("Stream: %v, %v", s, err)
			}
		}
		if runs.Load() != 0 {
			t.Fatalf("the effectful tool ran %d times under a done context", runs.Load())
		}
		mustValue(t, e, "result = count()", `{}`, `1`)
	})
}

// A context that ends while the program runs: a cancel is reported as
// cancelled (never as a timeout), a deadline as a timeout.
func TestContextEndedMidwayIsReportedAsItsReason(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		started := make(chan struct{}, 1)
		ready := host.NewTool(host.ToolSpec{Name: "ready"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			started <- struct{}{}
			return nil, nil
		})
		e := engineIn(t, isolation, host.WithTools(ready))
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-started
			cancel()
		}()
		resp, err := e.Execute(ctx, host.Request{Source: "ready()\nwhile True:\n    pass"})
		expectContextError(t, "cancel", resp, err, bridge.Cancelled)
		if resp.Error != "Cancelled: the caller cancelled the execution" {
			t.Errorf("cancel: response %q", resp.Error)
		}
		ctx, stop := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer stop()
		resp, err = e.Execute(ctx, host.Request{Source: "while True:\n    pass"})
		expectContextError(t, "deadline", resp, err, bridge.Timeout)
		mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
	})
}

// stuckTools are a speculative tool that ignores its context (it returns
// only when release is closed) and one, stuck_started(count=n), that
// returns once n calls of the former have started in all (so that a program
// can wait for the one it prepared, whatever earlier programs started).
func stuckTools(starts *atomic.Int32, release <-chan struct{}) []host.Tool {
	var mu sync.Mutex
	entered := sync.NewCond(&mu)
	stuck := host.NewTool(host.ToolSpec{Name: "stuck", Speculative: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		mu.Lock()
		starts.Add(1)
		entered.Broadcast()
		mu.Unlock()
		<-release
		return json.RawMessage(`"late"`), nil
	})
	// It changes nothing a read could see (Writes: none), so it leaves the
	// early call of stuck running.
	started := host.NewTool(host.ToolSpec{Name: "stuck_started", Writes: []string{}}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		var in struct{ Count int32 }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		stop := context.AfterFunc(ctx, func() {
			mu.Lock()
			entered.Broadcast()
			mu.Unlock()
		})
		defer stop()
		mu.Lock()
		defer mu.Unlock()
		for starts.Load() < in.Count {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			entered.Wait()
		}
		return nil, nil
	})
	return []host.Tool{stuck, started}
}

// A tool that ignores its context cannot hold an execution: a direct call,
// a claimed early call and an early call nobody claims are each abandoned
// bridge.Grace after the context ended, reported in the trace, and counted
// by AbandonedCalls until the tool really returns. Their worker slots stay
// taken meanwhile, and the next program's calls run anyway, as plain calls.
func TestToolIgnoringItsContextIsAbandoned(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		var starts atomic.Int32
		release := make(chan struct{})
		released := false
		defer func() {
			if !released {
				close(release)
			}
		}()
		e := engineIn(t, isolation, host.WithTools(stuckTools(&starts, release)...), host.WithWorkers(2),
			host.WithLimits(host.Limits{Timeout: time.Second}))
		expectAbandoned := func(what string, resp *host.Response, early, claimed bool) {
			t.Helper()
			for _, c := range resp.Calls {
				if c.Tool == "stuck" && c.Error == bridge.AbandonedError && c.Early == early && c.Claimed == claimed {
					return
				}
			}
			t.Fatalf("%s: no abandoned call in the trace %+v", what, resp.Calls)
		}

		resp, err := e.Execute(context.Background(), host.Request{Source: "stuck()"})
		expectContextError(t, "direct call", resp, err, bridge.Timeout)
		expectAbandoned("direct call", resp, false, false)
		if n := e.AbandonedCalls(); n != 1 {
			t.Fatalf("AbandonedCalls = %d after the direct call, want 1", n)
		}

		resp, err = e.Execute(context.Background(), host.Request{Source: "a = stuck()\nresult = a", PLM: true})
		expectContextError(t, "claimed early call", resp, err, bridge.Timeout)
		expectAbandoned("claimed early call", resp, true, false)

		resp, err = e.Execute(context.Background(), host.Request{Source: fmt.Sprintf(`import _spine
_spine.prepare('{"tool": "stuck", "args": {}}')
stuck_started(count=%d)
result = 'done'`, starts.Load()+1)})
		if err != nil || string(resp.Value) != `"done"` {
			t.Fatalf("unclaimed early call: %v %q", err, errorOf(resp))
		}
		expectAbandoned("unclaimed early call", resp, true, false)
		if n := e.AbandonedCalls(); n != 3 {
			t.Fatalf("AbandonedCalls = %d, want 3", n)
		}

		// Both worker slots are held by stuck tools: the program does not
		// wait for them, its call runs when it reaches it.
		resp = plm(t, e, "result = lookup(key=2)")
		if string(resp.Value) != "14" || len(resp.Calls) != 1 || resp.Calls[0].Early {
			t.Fatalf("with every worker taken: %s %+v", resp.Value, resp.Calls)
		}

		close(release)
		released = true
		waitFor(t, "the abandoned tools to return", func() bool { return e.AbandonedCalls() == 0 })
		// Their slots are free again: calls start early once more.
		waitFor(t, "an early call to start", func() bool {
			resp := plm(t, e, "result = lookup(key=3)")
			return len(resp.Calls) == 1 && resp.Calls[0].Early && resp.Calls[0].Claimed
		})
		if starts.Load() != 3 {
			t.Fatalf("the stuck tool started %d times, want 3", starts.Load())
		}
	})
}

// The sandbox's own failures carry one prefix each: the status's in
// Response.Error, the kind's in the error.
func TestSandboxFailuresHaveOnePrefix(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	cases := []struct {
		source   string
		status   host.Status
		response string // the prefix of Response.Error
		err      string // the prefix of the error's text
	}{
		{"x = bytearray(4 << 30)", host.StatusMemory, "memory: the program ", "spine: the sandboxed guest failed: the program "},
		{"import os\nos._exit(3)", host.StatusCrashed, "crashed: the sandboxed child ", "spine: the sandboxed guest failed: the sandboxed child "},
		{"import os\nos.execv('/bin/sh', ['sh'])", host.StatusViolation, "violation: the program ", "spine: the sandboxed guest failed: the program "},
		{"x = 10**10**8", host.StatusTimeout, "TimeoutError: the sandboxed child was killed ", "spine: execution timed out: the sandboxed child was killed "},
	}
	for _, c := range cases {
		resp, err := e.Execute(context.Background(), host.Request{Source: c.source})
		if resp == nil || resp.Status != c.status || err == nil || !strings.HasPrefix(resp.Error, c.response) || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%q: status %v, response %q, err %q", c.source, resp.Status, errorOf(resp), err)
		}
	}
}

// Waiting for a sandboxed child obeys the context like the rest of an
// execution: the error is an *ExecError of the context's reason, with a
// response that says so.
func TestWaitingForAChildObeysTheContext(t *testing.T) {
	holding, release := make(chan struct{}, 1), make(chan struct{})
	hold := host.NewTool(host.ToolSpec{Name: "hold"}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		holding <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, nil
	})
	e := newSandboxEngine(t, host.WithTools(hold), host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t), Prefork: 1, MaxChildren: 1}))
	held := make(chan error, 1)
	go func() {
		_, err := e.Execute(context.Background(), host.Request{Source: "hold()"})
		held <- err
	}()
	<-holding // the only child is taken

	ctx, stop := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer stop()
	resp, err := e.Execute(ctx, host.Request{Source: "result = 1"})
	expectContextError(t, "deadline while waiting for a child", resp, err, bridge.Timeout)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	resp, err = e.Execute(ctx, host.Request{Source: "result = 1"})
	expectContextError(t, "cancel while waiting for a child", resp, err, bridge.Cancelled)

	close(release)
	if err := <-held; err != nil {
		t.Fatalf("the execution holding the child: %v", err)
	}
	mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
}
