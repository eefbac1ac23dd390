package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func testTool(t *testing.T, name string, handler Handler) *Tool {
	t.Helper()
	tool, err := NewTool(name, "", nil, true, handler)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func echoTool(t *testing.T, runs *atomic.Int32) *Tool {
	return testTool(t, "echo", func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		runs.Add(1)
		return args, nil
	})
}

func (s *Session) usedBytes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// A prepared call is charged for its bookkeeping and, once done, its
// response until it is claimed; then only its trace entry stays charged.
func TestPreparedCallIsChargedUntilClaimed(t *testing.T) {
	var runs atomic.Int32
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"echo": echoTool(t, &runs)},
		Limits: Limits{ReservedBytes: 1000}})
	args := `{"x":"` + strings.Repeat("a", 10000) + `"}`
	request := []byte(`{"tool": "echo", "args": ` + args + `}`)
	handle := s.Prepare(request)
	if handle == 0 {
		t.Fatal("not prepared")
	}
	entry := traceCost("echo", []byte(args), "")
	response := len(valueResponse(json.RawMessage(args)))
	waitUntil(t, "the response to be charged", func() bool { return s.usedBytes() == 1000+earlyOverhead+entry+response })
	if got := s.Resolve(handle, request); string(got) != string(valueResponse(json.RawMessage(args))) {
		t.Fatalf("resolve: %.40s", got)
	}
	if used := s.usedBytes(); used != 1000+entry {
		t.Fatalf("after the claim %d bytes charged, want %d", used, 1000+entry)
	}
	s.Close()
	calls := s.Calls()
	if len(calls) != 1 || !calls[0].Early || !calls[0].Claimed || runs.Load() != 1 {
		t.Fatalf("trace %+v, %d runs", calls, runs.Load())
	}
}

// Prepared calls nobody claims are cancelled and traced at Close, and give
// back all but their trace entries.
func TestUnclaimedPreparedCallsAreTracedAtClose(t *testing.T) {
	var runs atomic.Int32
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"echo": echoTool(t, &runs)}})
	for i := 0; i < 3; i++ {
		if s.Prepare([]byte(`{"tool": "echo", "args": {"n": 1}}`)) == 0 {
			t.Fatal("not prepared")
		}
	}
	s.Close()
	calls := s.Calls()
	want := 0
	for _, c := range calls {
		if !c.Early || c.Claimed {
			t.Errorf("call %+v", c)
		}
		want += traceCost(c.Tool, c.Args, c.Error)
	}
	if len(calls) != 3 || s.usedBytes() != want {
		t.Fatalf("%d calls, %d bytes charged, want 3 calls and %d", len(calls), s.usedBytes(), want)
	}
}

// A prepared call still waiting for a worker slot when the program reaches
// it runs then, as a plain call: the program never waits for the slots
// other executions hold.
func TestPreparedCallWaitingForAWorkerRunsWhenReached(t *testing.T) {
	var runs atomic.Int32
	workers := make(chan struct{}, 1)
	workers <- struct{}{} // every slot is taken
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"echo": echoTool(t, &runs)}, Workers: workers})
	request := []byte(`{"tool": "echo", "args": {"n": 1}}`)
	handle := s.Prepare(request)
	if handle == 0 {
		t.Fatal("not prepared")
	}
	if got := s.Resolve(handle, request); string(got) != `{"value":{"n": 1}}` {
		t.Fatalf("resolve: %s", got)
	}
	s.Close()
	calls := s.Calls()
	if len(calls) != 1 || calls[0].Early || runs.Load() != 1 || len(workers) != 1 {
		t.Fatalf("trace %+v, %d runs, %d slots taken", calls, runs.Load(), len(workers))
	}
}

// Close does not wait for a tool that ignores its context: Grace after the
// context ended the call is abandoned and traced as such; its worker slot
// stays taken, and counted, until the tool really returns.
func TestCloseAbandonsAToolThatIgnoresItsContext(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	stuck := testTool(t, "stuck", func(context.Context, json.RawMessage) (json.RawMessage, error) {
		close(entered)
		<-release
		return nil, nil
	})
	workers := make(chan struct{}, 4)
	var abandoned atomic.Int64
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"stuck": stuck}, Workers: workers, Abandoned: &abandoned})
	if s.Prepare([]byte(`{"tool": "stuck", "args": {}}`)) == 0 {
		t.Fatal("not prepared")
	}
	<-entered
	s.Close()
	calls := s.Calls()
	if len(calls) != 1 || calls[0].Error != AbandonedError || abandoned.Load() != 1 || len(workers) != 1 {
		t.Fatalf("trace %+v, %d abandoned, %d slots taken", calls, abandoned.Load(), len(workers))
	}
	close(release)
	waitUntil(t, "the abandoned tool to give its slot back", func() bool { return abandoned.Load() == 0 && len(workers) == 0 })
}

// Once the execution's context has ended no tool starts: Call answers
// without running one, Prepare prepares nothing, and neither counts.
func TestNothingStartsOnceTheContextEnded(t *testing.T) {
	var runs atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	s := NewSession(ctx, Config{Tools: map[string]*Tool{"echo": echoTool(t, &runs)}, Limits: Limits{MaxToolCalls: 1}})
	cancel()
	request := []byte(`{"tool": "echo", "args": {}}`)
	if got := string(s.Call(request)); got != `{"error":"not started: context canceled"}` {
		t.Fatalf("call: %s", got)
	}
	if handle := s.Prepare(request); handle != 0 {
		t.Fatalf("prepare: handle %d", handle)
	}
	s.Close()
	if runs.Load() != 0 || len(s.Calls()) != 0 || s.LimitExceeded() != "" {
		t.Fatalf("%d runs, trace %+v, limit %q", runs.Load(), s.Calls(), s.LimitExceeded())
	}
}

// Every prepare is a tool call, started or not; one past the limit stops
// the program.
func TestPreparesCountAgainstTheToolCallLimit(t *testing.T) {
	var runs atomic.Int32
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"echo": echoTool(t, &runs)}, Limits: Limits{MaxToolCalls: 2}})
	var stopped atomic.Int32
	s.SetStop(func() { stopped.Add(1) })
	if s.Prepare([]byte(`{"tool": "nope", "args": {}}`)) != 0 {
		t.Fatal("an unknown tool was prepared")
	}
	if s.Prepare([]byte(`{"tool": "echo", "args": {}}`)) == 0 {
		t.Fatal("not prepared")
	}
	if s.Prepare([]byte(`{"tool": "echo", "args": {}}`)) != 0 {
		t.Fatal("prepared past the limit")
	}
	if s.LimitExceeded() != "tool call limit of 2 exceeded" || stopped.Load() != 1 {
		t.Fatalf("limit %q, stopped %d times", s.LimitExceeded(), stopped.Load())
	}
	s.Close()
}

// A refused request's trace entry keeps at most RefusedPrefix bytes of its
// tool name and of what was sent, cut at a character boundary.
func TestRefusedTraceKeepsAPrefix(t *testing.T) {
	args := `{"x": "` + strings.Repeat("é", 300) + `"}`
	c := refusedTrace(strings.Repeat("t", 300), []byte(args), nil)
	var text string
	if err := json.Unmarshal(c.Args, &text); err != nil || !c.ArgsTruncated {
		t.Fatalf("args %s (%v), truncated %v", c.Args, err, c.ArgsTruncated)
	}
	if len(c.Tool) != RefusedPrefix || len(text) != RefusedPrefix-1 || !strings.HasPrefix(args, text) {
		t.Fatalf("tool %d bytes, args %d bytes: %q", len(c.Tool), len(text), text)
	}
	c = refusedTrace("t", []byte(`{"ok": 1}`), nil)
	if string(c.Args) != `{"ok": 1}` || c.ArgsTruncated {
		t.Fatalf("short valid args: %+v", c)
	}
	c = refusedTrace("", nil, []byte("\xff not json"))
	if string(c.Args) != "\"\uFFFD not json\"" || !c.ArgsTruncated {
		t.Fatalf("raw request: %s", c.Args)
	}
}

// A response that does not fit the budget is dropped, not kept: the
// program's claim runs the call again, as a plain call, and nothing stops.
func TestEarlyResponseThatDoesNotFitRunsAgainWhenClaimed(t *testing.T) {
	var runs atomic.Int32
	args := `{"x":"` + strings.Repeat("a", 1000) + `"}`
	entry := traceCost("echo", []byte(args), "")
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"echo": echoTool(t, &runs)},
		Limits: Limits{MaxHostBytes: earlyOverhead + entry + len(EvictedError) + 100}})
	request := []byte(`{"tool": "echo", "args": ` + args + `}`)
	handle := s.Prepare(request)
	if handle == 0 {
		t.Fatal("not prepared")
	}
	waitUntil(t, "the call to run", func() bool { return runs.Load() == 1 })
	if got := s.Resolve(handle, request); string(got) != string(valueResponse(json.RawMessage(args))) {
		t.Fatalf("resolve: %.40s", got)
	}
	s.Close()
	calls := s.Calls()
	if runs.Load() != 2 || len(calls) != 1 || calls[0].Early || calls[0].Error != "" || s.LimitExceeded() != "" {
		t.Fatalf("%d runs, %d calls traced (early %v, error %q), limit %q", runs.Load(), len(calls), calls[0].Early, calls[0].Error, s.LimitExceeded())
	}
	if used := s.usedBytes(); used != entry {
		t.Fatalf("%d bytes charged, want the trace entry's %d", used, entry)
	}
}
