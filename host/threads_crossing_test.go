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
)

// rendezvous is a tool that returns only once `n` calls of it are running at
// the same time (or after a generous 20 s, with an error): calls the host
// ran one after another could never all meet.
type rendezvous struct {
	n       int
	mu      sync.Mutex
	arrived int
	all     chan struct{}
}

func newRendezvous(n int) *rendezvous { return &rendezvous{n: n, all: make(chan struct{})} }

func (r *rendezvous) tool() host.Tool {
	return host.NewTool(host.ToolSpec{Name: "meet"}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		r.mu.Lock()
		r.arrived++
		if r.arrived == r.n {
			close(r.all)
		}
		r.mu.Unlock()
		select {
		case <-r.all:
			return json.RawMessage("true"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Second):
			return nil, errors.New("the other calls never came while this one ran")
		}
	})
}

// Tool calls from the program's threads run on the host at the same time,
// in both modes: eight threads of a ThreadPoolExecutor each call a tool
// that returns only once all eight are inside it, and the trace shows the
// eight calls overlapping.
func TestThreadsCallToolsConcurrently(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		meet := newRendezvous(8)
		e := m.engine(t, host.WithTools(meet.tool()), host.WithLimits(host.Limits{Timeout: 60 * time.Second}))
		src := `from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=8) as pool:
    result = list(pool.map(lambda k: meet(), range(8)))`
		resp, err := e.Execute(context.Background(), host.Request{Source: src})
		if err != nil || string(resp.Value) != "[true, true, true, true, true, true, true, true]" {
			t.Fatalf("%v %+v", err, resp)
		}
		if len(resp.Calls) != 8 {
			t.Fatalf("%d calls traced: %+v", len(resp.Calls), resp.Calls)
		}
		lastStart, firstEnd := resp.Calls[0].Start, resp.Calls[0].End
		for _, c := range resp.Calls {
			lastStart, firstEnd = max(lastStart, c.Start), min(firstEnd, c.End)
		}
		if lastStart > firstEnd {
			t.Fatalf("the calls do not overlap in the trace: last start %v, first end %v", lastStart, firstEnd)
		}
	})
}

// A thread still inside a tool call when its program ends dies with the
// child: its tool is told through its context and has returned by the time
// Execute has, the trace shows the call cut short, and nothing of it reaches
// the next execution.
func TestSandboxThreadInAToolCallAtProgramEnd(t *testing.T) {
	var running atomic.Int32
	entered := make(chan struct{}, 1)
	hang := host.NewTool(host.ToolSpec{Name: "hang"}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		running.Add(1)
		defer running.Add(-1)
		entered <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(30 * time.Second):
			return json.RawMessage("1"), nil
		}
	})
	inside := host.NewTool(host.ToolSpec{Name: "inside"}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		select {
		case <-entered:
			return json.RawMessage("true"), nil
		case <-time.After(20 * time.Second):
			return nil, errors.New("hang was never called")
		}
	})
	e := newSandboxEngine(t, host.WithTools(hang, inside), host.WithLimits(host.Limits{Timeout: 60 * time.Second}))
	src := `import threading
threading.Thread(target=lambda: print('hang gave', hang())).start()
result = inside()`
	resp, err := e.Execute(context.Background(), host.Request{Source: src})
	if err != nil || string(resp.Value) != "true" || resp.Stdout != "" {
		t.Fatalf("%v %+v", err, resp)
	}
	if n := running.Load(); n != 0 {
		t.Fatalf("%d hang calls still running after Execute returned", n)
	}
	var hung *host.Call
	for i := range resp.Calls {
		if resp.Calls[i].Tool == "hang" {
			hung = &resp.Calls[i]
		}
	}
	if hung == nil || !strings.Contains(hung.Error, "context canceled") {
		t.Fatalf("the hang call in the trace: %+v", resp.Calls)
	}
	next, err := e.Execute(context.Background(), host.Request{Source: "result = lookup(key=1)"})
	if err != nil || string(next.Value) != "7" || next.Stdout != "" || len(next.Calls) != 1 || next.Calls[0].Tool != "lookup" {
		t.Fatalf("next: %v %+v", err, next)
	}
}

// ownEchoes runs `threads` threads that each echo a text of `size`
// characters of their own `rounds` times, and checks every thread got its
// own text back every time.
func ownEchoes(t *testing.T, e *host.Engine, threads, size, rounds int) {
	t.Helper()
	src := fmt.Sprintf(`from concurrent.futures import ThreadPoolExecutor
def own(k):
    for i in range(%[3]d):
        mine = chr(65 + (k + i) %% 26) * %[2]d
        if echo(v=mine)['v'] != mine:
            return False
    return True
with ThreadPoolExecutor(max_workers=%[1]d) as pool:
    result = all(pool.map(own, range(%[1]d)))`, threads, size, rounds)
	resp, err := e.Execute(context.Background(), host.Request{Source: src})
	if err != nil || string(resp.Value) != "true" || len(resp.Calls) != threads*rounds {
		t.Fatalf("%v %+v", err, resp)
	}
}

// Answers too large for a thread's buffer are held for that thread, in
// both modes: eight threads at once each get back their own 200 KB echo.
func TestThreadsGetTheirOwnLargeAnswers(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		ownEchoes(t, m.engine(t, host.WithLimits(host.Limits{Timeout: 60 * time.Second})), 8, 200_000, 5)
	})
}

// Thirty-two threads of a child allocate within its memory limit: glibc's
// per-thread malloc arenas (64 MiB of address space each) would otherwise
// use up RLIMIT_AS in reservations and fail the child's allocations.
func TestSandboxManyThreadsFitTheChildsMemory(t *testing.T) {
	ownEchoes(t, newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 60 * time.Second})), 32, 70_000, 4)
}
