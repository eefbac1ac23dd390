package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/spine-sandbox/spine/host"
)

// A call past the limiter's burst waits for a token: here the second call
// waits (the limiter's tokens go negative: it reserved one) without its
// tool running, until the caller cancels the execution; it never runs.
func TestRateLimitDelaysCalls(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p := newProbe()
		limiter := rate.NewLimiter(rate.Every(time.Minute), 1)
		e := m.engine(t, host.WithTools(p.tool("probe", true)), host.WithHooks(host.RateLimit(limiter, "probe")),
			host.WithLimits(host.Limits{Timeout: 10 * time.Minute}))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		type outcome struct {
			resp *host.Response
			err  error
		}
		done := make(chan outcome, 1)
		go func() {
			resp, err := e.Execute(ctx, host.Request{Source: "a = probe(key=1)\nb = probe(key=2)\nresult = [a, b]"})
			done <- outcome{resp, err}
		}()
		waitFor(t, "the second call to wait for a token", func() bool { return limiter.Tokens() < -0.5 })
		if p.ran(1) != 1 || p.ran(2) != 0 {
			t.Fatalf("while the second call waits: runs %v", p.runs)
		}
		cancel()
		got := <-done
		if !errors.Is(got.err, context.Canceled) || got.resp.Status != host.StatusCancelled {
			t.Fatalf("want cancelled, got %v", got.err)
		}
		if p.ran(2) != 0 {
			t.Fatal("the call waiting for a token ran")
		}
	})
}

// A wait that would outlast the execution's deadline fails at once: the
// program sees the limiter's error at the call site and the tool never
// runs. A tool the limiter does not name is not limited.
func TestRateLimitFailsAWaitPastTheDeadline(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p := newProbe()
		limiter := rate.NewLimiter(rate.Every(time.Hour), 1)
		e := m.engine(t, host.WithTools(p.tool("probe", true), p.tool("free", true)),
			host.WithHooks(host.RateLimit(limiter, "probe")))
		resp, err := e.Execute(context.Background(), host.Request{Source: `
a = probe(key=1)
try:
    probe(key=2)
except RuntimeError as e:
    b = str(e)
result = [a, b, free(key=3), free(key=4)]`})
		if err != nil {
			t.Fatalf("%v (%s)", err, errorOf(resp))
		}
		var got []any
		if json.Unmarshal(resp.Value, &got) != nil || len(got) != 4 {
			t.Fatalf("value %s", resp.Value)
		}
		if message, _ := got[1].(string); !strings.HasPrefix(message, "probe: rate limit: ") || !strings.Contains(message, "deadline") {
			t.Fatalf("the limited call's error: %q", got[1])
		}
		if p.ran(2) != 0 || p.ran(3) != 1 || p.ran(4) != 1 {
			t.Fatalf("runs %v", p.runs)
		}
	})
}

// Retry runs a failing speculative call again until it succeeds, within its
// attempts, and gives the program the last failure when none does; a
// failing effectful call runs once.
func TestRetryRetriesSpeculativeToolsOnly(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p := newProbe()
		p.failures[1] = 2 // succeeds on its third run
		p.failures[2] = 9 // never within the attempts
		p.failures[3] = 1 // effectful: would succeed on a second run
		e := m.engine(t, host.WithTools(p.tool("probe", true), p.tool("act", false)),
			host.WithHooks(host.Retry(host.RetryOptions{Attempts: 3, Backoff: time.Millisecond})))
		resp, err := e.Execute(context.Background(), host.Request{Source: `
def attempt(f, key):
    try:
        return f(key=key)
    except RuntimeError as e:
        return str(e)
result = [attempt(probe, 1), attempt(probe, 2), attempt(act, 3)]`})
		if err != nil {
			t.Fatalf("%v (%s)", err, errorOf(resp))
		}
		want := `[10, "probe: run 3 of key 2 failed", "act: run 1 of key 3 failed"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s", resp.Value, want)
		}
		if runs := []int{p.ran(1), p.ran(2), p.ran(3)}; !reflect.DeepEqual(runs, []int{3, 3, 1}) {
			t.Fatalf("runs per key %v, want [3 3 1]", runs)
		}
	})
}

// Approval asks its callback before each call of the gated tool, with the
// tool and its arguments; a refusal is the program's PermissionError with
// the callback's reason, and the tool does not run. A gated speculative
// tool is not started early under PLM: the callback is asked once, about
// the program's own call. Other tools are not asked about.
func TestApprovalAsksTheCallback(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p := newProbe()
		var mu sync.Mutex
		var asked []string
		decide := func(_ context.Context, call host.CallInfo) (bool, string) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, fmt.Sprintf("%s %s early=%v", call.Tool, call.Args, call.Early))
			return !strings.Contains(string(call.Args), `"key":2`), "key 2 needs a manager"
		}
		e := m.engine(t, host.WithTools(p.tool("send", false), p.tool("look", true), p.tool("free", true)),
			host.WithHooks(host.Approval(decide, "send", "look")))
		resp, err := e.Execute(context.Background(), host.Request{PLM: true, Source: `
a = send(key=1)
try:
    b = send(key=2)
except PermissionError as e:
    b = str(e)
result = [a, b, look(key=3), free(key=4)]`})
		if err != nil || string(resp.Value) != `[10, "key 2 needs a manager", 30, 40]` {
			t.Fatalf("%v %s (%s)", err, resp.Value, errorOf(resp))
		}
		want := []string{`send {"key":1} early=false`, `send {"key":2} early=false`, `look {"key":3} early=false`}
		if !reflect.DeepEqual(asked, want) {
			t.Fatalf("asked %q, want %q", asked, want)
		}
		if p.ran(2) != 0 {
			t.Fatal("the refused call ran")
		}
		for _, c := range resp.Calls {
			if c.Tool == "look" && c.Early {
				t.Fatalf("a call needing approval started early: %+v", c)
			}
			if c.Tool == "free" && !c.Early {
				t.Fatalf("a call not needing approval lost its head start: %+v", c)
			}
		}
	})
}
