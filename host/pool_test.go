package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// barrierTool returns "together" only once `want` calls are inside it at the
// same time, and fails at its context's end otherwise: every call returning
// proves they all ran at once, whatever the machine's speed.
func barrierTool(want int) host.Tool {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return host.NewTool(host.ToolSpec{Name: "barrier", Schema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			mu.Lock()
			arrived++
			if arrived == want {
				close(all)
			}
			mu.Unlock()
			select {
			case <-all:
				return json.RawMessage(`"together"`), nil
			case <-ctx.Done():
				mu.Lock()
				defer mu.Unlock()
				return nil, fmt.Errorf("only %d of %d calls were in flight at once", arrived, want)
			}
		})
}

func newPoolEngine(t *testing.T, prefork, maxChildren int, opts ...host.Option) *host.Engine {
	t.Helper()
	opts = append([]host.Option{host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t), Prefork: prefork, MaxChildren: maxChildren})}, opts...)
	e, err := host.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// executeTogether runs n executions of `result = barrier()` at once; each
// must return "together".
func executeTogether(t *testing.T, e *host.Engine, n int) {
	t.Helper()
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			resp, err := e.Execute(context.Background(), host.Request{Source: "result = barrier()"})
			if err == nil && string(resp.Value) != `"together"` {
				err = fmt.Errorf("value %s", resp.Value)
			}
			errs <- err
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// Prefork is the number of warm spares, not a cap on concurrency: sixteen
// executions that each wait in a tool all run at once with two spares.
func TestSandboxRunsMoreExecutionsAtOnceThanPrefork(t *testing.T) {
	const executions = 16
	e := newPoolEngine(t, 2, executions, host.WithTools(barrierTool(executions)),
		host.WithLimits(host.Limits{Timeout: 60 * time.Second}))
	executeTogether(t, e, executions)
}

// A stream whose context is cancelled, and which is then forgotten (never
// finished nor aborted), releases its child at once: MaxChildren further
// executions still run, all at the same time.
func TestForgottenCancelledStreamReleasesItsChild(t *testing.T) {
	const maxChildren = 2
	e := newPoolEngine(t, 1, maxChildren, host.WithTools(append(demotools.Tools(), barrierTool(maxChildren))...),
		host.WithLimits(host.Limits{Timeout: 60 * time.Second}))
	var forgotten []*host.Stream
	for i := 0; i < maxChildren; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		s, err := e.Stream(ctx, host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		s.Feed([]byte("a = sleep(ms=60000)\n"))
		waitFor(t, "the stream's call to start", func() bool { return s.Started() == 1 })
		cancel()
		forgotten = append(forgotten, s)
	}
	executeTogether(t, e, maxChildren)
	for _, s := range forgotten {
		if _, err := s.Finish(); !errors.Is(err, context.Canceled) {
			t.Fatalf("Finish of a stream whose context was cancelled: %v", err)
		}
		if err := s.Feed([]byte("b = 1\n")); !errors.Is(err, context.Canceled) {
			t.Fatalf("Feed of a stream whose context was cancelled: %v", err)
		}
	}
}

// Stream waits for a child at most the engine's timeout, whatever its
// context: with every child held by an open stream, it fails with an error
// matching context.DeadlineExceeded instead of blocking.
func TestStreamWaitsForAChildAtMostTheTimeout(t *testing.T) {
	e := newPoolEngine(t, 1, 1, host.WithTools(demotools.Tools()...),
		host.WithLimits(host.Limits{Timeout: 300 * time.Millisecond}))
	holder, err := e.Stream(context.Background(), host.Request{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		s, err := e.Stream(context.Background(), host.Request{})
		if err == nil {
			s.Abort()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Stream with every child busy: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Stream blocked while every child was busy")
	}
	// Once the holder is aborted its slot serves again. The timeout is short
	// for the wait above, so on a loaded machine the replacement child may
	// need more than one attempt to become ready in time.
	holder.Abort()
	for deadline := time.Now().Add(30 * time.Second); ; {
		s, err := e.Stream(context.Background(), host.Request{})
		var resp *host.Response
		if err == nil {
			s.Feed([]byte("result = lookup(key=6)"))
			resp, err = s.Finish()
		}
		if err == nil && string(resp.Value) == "42" {
			return
		}
		if !errors.Is(err, context.DeadlineExceeded) || time.Now().After(deadline) {
			t.Fatalf("a stream after the holder's Abort: %v %v", err, resp)
		}
	}
}
