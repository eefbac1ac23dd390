package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// probe is a tool that counts its runs per argument key, and fails the
// first failures[key] of them.
type probe struct {
	mu       sync.Mutex
	runs     map[int]int
	failures map[int]int
}

func newProbe() *probe { return &probe{runs: map[int]int{}, failures: map[int]int{}} }

func (p *probe) tool(name string, speculative bool) host.Tool {
	return host.NewTool(host.ToolSpec{Name: name, Speculative: speculative, Reads: []string{}},
		func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			var in struct{ Key int }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			p.runs[in.Key]++
			if p.runs[in.Key] <= p.failures[in.Key] {
				return nil, fmt.Errorf("%s: run %d of key %d failed", name, p.runs[in.Key], in.Key)
			}
			return json.Marshal(in.Key * 10)
		})
}

func (p *probe) ran(key int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.runs[key]
}

// hookLog records what hooks saw, in order.
type hookLog struct {
	mu     sync.Mutex
	before []host.CallInfo
	after  []host.CallInfo
	ends   []host.CallEnd
}

func (l *hookLog) hook(deny func(host.CallInfo) error) host.Hook {
	return host.Hook{
		Before: func(_ context.Context, call host.CallInfo) error {
			l.mu.Lock()
			l.before = append(l.before, call)
			l.mu.Unlock()
			return deny(call)
		},
		After: func(_ context.Context, call host.CallInfo, end host.CallEnd) {
			l.mu.Lock()
			l.after = append(l.after, call)
			l.ends = append(l.ends, end)
			l.mu.Unlock()
		},
	}
}

func denyKey(key int, message string) func(host.CallInfo) error {
	return func(call host.CallInfo) error {
		var in struct{ Key int }
		if json.Unmarshal(call.Args, &in) == nil && in.Key == key {
			return errors.New(message)
		}
		return nil
	}
}

func TestHookDenialIsACatchablePermissionError(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p, log := newProbe(), &hookLog{}
		e := m.engine(t, host.WithTools(p.tool("probe", true)), host.WithHooks(log.hook(denyKey(1, "no key 1 today"))))
		resp, err := e.Execute(context.Background(), host.Request{Source: `
try:
    probe(key=1)
    caught = None
except PermissionError as e:
    caught = str(e)
result = [caught, probe(key=2)]`})
		if err != nil || string(resp.Value) != `["no key 1 today", 20]` {
			t.Fatalf("%v %s %s", err, resp.Value, errorOf(resp))
		}
		if p.ran(1) != 0 || p.ran(2) != 1 {
			t.Fatalf("the denied call ran: %v", p.runs)
		}
		if c := resp.Calls[0]; c.Tool != "probe" || c.Error != "denied: no key 1 today" || c.Early {
			t.Fatalf("trace of the denied call: %+v", c)
		}
		if len(log.ends) != 2 || !log.ends[0].Denied || log.ends[1].Denied || log.ends[1].Error != "" {
			t.Fatalf("After saw %+v", log.ends)
		}
	})
}

func TestUncaughtHookDenialEndsWithPermissionError(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p, log := newProbe(), &hookLog{}
		e := m.engine(t, host.WithTools(p.tool("probe", true)), host.WithHooks(log.hook(denyKey(1, "no key 1 today"))))
		resp, err := e.Execute(context.Background(), host.Request{Source: "x = 1\nresult = probe(key=1)"})
		var execErr *host.ExecError
		if !errors.Is(err, host.ErrGuest) || !errors.As(err, &execErr) || execErr.Line != 2 {
			t.Fatalf("want the program's error on line 2, got %v", err)
		}
		if resp.Status != host.StatusError || resp.Error != "PermissionError: no key 1 today" || resp.Line != 2 {
			t.Fatalf("%s %q line %d", resp.Status, resp.Error, resp.Line)
		}
		if p.ran(1) != 0 {
			t.Fatal("the denied call ran")
		}
	})
}

// A call PLM would start early is asked about as it is prepared; denied, it
// is not started early (no early entry in the trace, its tool never ran),
// and the program's own call is asked about again and denied where the
// program makes it. The call allowed early is claimed, and After says so.
func TestHookDeniedEarlyCallIsNotStartedEarly(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p, log := newProbe(), &hookLog{}
		e := m.engine(t, host.WithTools(p.tool("probe", true)), host.WithHooks(log.hook(denyKey(2, "no key 2 today"))))
		resp, err := e.Execute(context.Background(), host.Request{PLM: true,
			Source: "a = probe(key=1)\nb = probe(key=2)\nresult = [a, b]"})
		if !errors.Is(err, host.ErrGuest) || resp.Error != "PermissionError: no key 2 today" || resp.Line != 2 {
			t.Fatalf("want PermissionError on line 2, got %v (%s, line %d)", err, errorOf(resp), resp.Line)
		}
		if p.ran(2) != 0 || p.ran(1) != 1 {
			t.Fatalf("runs %v", p.runs)
		}
		var asked []string
		for _, c := range log.before {
			asked = append(asked, fmt.Sprintf("%s early=%v", c.Args, c.Early))
		}
		want := []string{`{"key":1} early=true`, `{"key":2} early=true`, `{"key":2} early=false`}
		if !reflect.DeepEqual(asked, want) {
			t.Fatalf("Before was asked %q, want %q", asked, want)
		}
		var traced []string
		for _, c := range resp.Calls {
			traced = append(traced, fmt.Sprintf("%s early=%v claimed=%v error=%q", c.Args, c.Early, c.Claimed, c.Error))
		}
		wantTrace := []string{`{"key":1} early=true claimed=true error=""`, `{"key":2} early=false claimed=false error="denied: no key 2 today"`}
		if !reflect.DeepEqual(traced, wantTrace) {
			t.Fatalf("trace %q, want %q", traced, wantTrace)
		}
		claimed := false
		for i, c := range log.after {
			if c.Early && c.Claimed && string(c.Args) == `{"key":1}` && log.ends[i].Error == "" {
				claimed = true
			}
		}
		if !claimed {
			t.Fatalf("After never saw the claimed early call: %+v", log.after)
		}
	})
}

// A tool that is not speculative runs exactly as often as the program
// calls it: an Around hook that calls next twice gets an error the second
// time, and the tool runs once.
func TestHookCannotRunAnEffectfulToolTwice(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p := newProbe()
		var second error
		twice := host.Hook{Around: func(ctx context.Context, call host.CallInfo, next func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
			value, err := next(ctx)
			_, second = next(ctx)
			return value, err
		}}
		e := m.engine(t, host.WithTools(p.tool("act", false)), host.WithHooks(twice))
		mustValue(t, e, "result = act(key=3)", "", "30")
		if p.ran(3) != 1 {
			t.Fatalf("the effectful tool ran %d times", p.ran(3))
		}
		if !errors.Is(second, host.ErrRunOnce) {
			t.Fatalf("the second run of an effectful tool: %v, want ErrRunOnce", second)
		}
	})
}

// After sees every call the trace records, each once, however it ended:
// here calls PLM started early whose responses were evicted to make room
// for the program's own (budget_test.go), claimed ones, and plain ones.
func TestHookAfterSeesEveryTracedCall(t *testing.T) {
	source := evictingProgram
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		log := &hookLog{}
		e := m.engine(t, host.WithLimits(host.Limits{HostBytes: 300_000, StdoutBytes: 10_000}),
			host.WithHooks(log.hook(func(host.CallInfo) error { return nil })))
		resp, err := e.Execute(context.Background(), host.Request{Source: source, PLM: true})
		if err != nil {
			t.Fatalf("%v (%s)", err, errorOf(resp))
		}
		count := func(errors []string) map[string]int {
			out := map[string]int{}
			for _, e := range errors {
				out[e]++
			}
			return out
		}
		var traced, seen []string
		for _, c := range resp.Calls {
			traced = append(traced, fmt.Sprintf("early=%v claimed=%v error=%q", c.Early, c.Claimed, c.Error))
		}
		for i, end := range log.ends {
			seen = append(seen, fmt.Sprintf("early=%v claimed=%v error=%q", log.after[i].Early, log.after[i].Claimed, end.Error))
		}
		if !reflect.DeepEqual(count(traced), count(seen)) {
			t.Fatalf("traced %v\nAfter saw %v", count(traced), count(seen))
		}
		if count(traced)[`early=true claimed=false error="evicted: not claimed before the execution needed its memory"`] == 0 {
			t.Fatalf("nothing was evicted: %v", count(traced))
		}
	})
}

// A Before hook is bounded like a tool: one that ignores its context is
// abandoned ToolGrace after the deadline, and the execution ends on time.
func TestHookThatIgnoresItsContextIsAbandoned(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		release := make(chan struct{})
		stuck := host.Hook{Before: func(context.Context, host.CallInfo) error { <-release; return nil }}
		e := m.engine(t, host.WithHooks(stuck), host.WithLimits(host.Limits{Timeout: 200 * time.Millisecond}))
		resp, err := e.Execute(context.Background(), host.Request{Source: "result = echo(x=1)"})
		if !errors.Is(err, host.ErrTimeout) || len(resp.Calls) != 1 || !strings.HasPrefix(resp.Calls[0].Error, "abandoned: ") {
			t.Fatalf("want a timeout with the call abandoned, got %v %+v", err, resp.Calls)
		}
		if e.AbandonedCalls() != 1 {
			t.Fatalf("abandoned calls %d, want 1", e.AbandonedCalls())
		}
		close(release)
		waitFor(t, "the hook to return", func() bool { return e.AbandonedCalls() == 0 })
	})
}

// A tool called in async code is the program's own call, asked about once
// (not as early) when the program starts it; refused, the program sees
// PermissionError where it awaits it, and the tool does not run. An
// effectful tool asked about so is not run either.
func TestHookDeniesAsyncCallsAtTheirAwait(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		p, log := newProbe(), &hookLog{}
		e := m.engine(t, host.WithTools(p.tool("probe", true), p.tool("act", false)),
			host.WithHooks(log.hook(denyKey(2, "no key 2 today"))))
		resp, err := e.Execute(context.Background(), host.Request{Source: `import asyncio
async def attempt(call):
    try:
        return await call
    except PermissionError as e:
        return 'denied: ' + str(e)
async def main():
    return await asyncio.gather(attempt(probe(key=1)), attempt(probe(key=2)), attempt(act(key=2)))
result = asyncio.run(main())`})
		if err != nil || string(resp.Value) != `[10, "denied: no key 2 today", "denied: no key 2 today"]` {
			t.Fatalf("%v %s (%s)", err, resp.Value, errorOf(resp))
		}
		if p.ran(1) != 1 || p.ran(2) != 0 {
			t.Fatalf("runs %v", p.runs)
		}
		var asked []string
		for _, c := range log.before {
			asked = append(asked, fmt.Sprintf("%s %s early=%v", c.Tool, c.Args, c.Early))
		}
		sort.Strings(asked)
		want := []string{`act {"key":2} early=false`, `probe {"key":1} early=false`, `probe {"key":2} early=false`}
		if !reflect.DeepEqual(asked, want) {
			t.Fatalf("Before was asked %q, want %q", asked, want)
		}
		denied := 0
		for i, end := range log.ends {
			if end.Denied && !log.after[i].Early {
				denied++
			}
		}
		if denied != 2 {
			t.Fatalf("After saw %d denials, want 2: %+v", denied, log.ends)
		}
	})
}
