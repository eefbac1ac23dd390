package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func testStreamStartsCallsBeforeTheProgramEnds(t *testing.T, m isolationMode) {
	e := m.engine(t)
	s, err := e.Stream(context.Background(), host.Request{Inputs: []byte(`{"k": 4}`)})
	if err != nil {
		t.Fatal(err)
	}
	s.Feed([]byte("a = lookup(key=inputs['k'])\nb = sleep(ms=1, value='z')\n"))
	waitFor(t, "calls started during the stream", func() bool { return s.Started() == 2 })
	s.Feed([]byte("result = [a, b, emit(value=a)]"))
	resp, err := s.Finish()
	if err != nil || string(resp.Value) != `[28, "z", 1]` {
		t.Fatalf("%v %s", err, resp.Value)
	}
	streamed := 0
	for _, c := range resp.Calls {
		if c.Stream && c.Claimed {
			streamed++
		}
		if c.Tool == "emit" && c.Early {
			t.Fatal("emit started early")
		}
	}
	if streamed != 2 {
		t.Fatalf("calls %+v", resp.Calls)
	}
}

func testAbortedStreamCancelsItsCalls(t *testing.T, m isolationMode) {
	e := m.engine(t)
	s, err := e.Stream(context.Background(), host.Request{})
	if err != nil {
		t.Fatal(err)
	}
	s.Feed([]byte("a = sleep(ms=600000, value=1)\nb = sleep(ms=600000, value=2)\n"))
	waitFor(t, "the sleeps to start", func() bool { return s.Started() == 2 })
	s.Abort()
	calls := s.Calls()
	if len(calls) != 2 {
		t.Fatalf("trace after abort: %+v", calls)
	}
	for _, c := range calls {
		if !c.Early || !c.Stream || c.Claimed || !strings.Contains(c.Error, "canceled") {
			t.Fatalf("call not cancelled: %+v", c)
		}
	}
	if _, err := s.Finish(); !errors.Is(err, host.ErrStreamDone) {
		t.Fatalf("Finish after Abort: %v", err)
	}
	mustValue(t, e, "result = 1", `{}`, `1`)
}

// Cancelling a stream's context ends the calls it started, without Abort:
// the tool here reports when its context ends, the cancelled call is then
// traced, and Finish says the stream was cancelled.
func testCancelledContextCancelsStreamCalls(t *testing.T, m isolationMode) {
	running, ended := make(chan struct{}), make(chan error, 1)
	block := host.NewTool(host.ToolSpec{Name: "block", Speculative: true},
		func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			close(running)
			<-ctx.Done()
			ended <- ctx.Err()
			return nil, ctx.Err()
		})
	e := m.engine(t, host.WithTools(block))
	ctx, cancel := context.WithCancel(context.Background())
	s, err := e.Stream(ctx, host.Request{})
	if err != nil {
		t.Fatal(err)
	}
	s.Feed([]byte("a = block()\n"))
	select { // the handler itself is running, not only prepared
	case <-running:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not start its call early")
	}
	cancel()
	if err := s.Feed([]byte("x = 1\n")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Feed after cancel: %v", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the call's context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the stream's context did not end its call")
	}
	waitFor(t, "the cancelled call to be traced", func() bool { return len(s.Calls()) == 1 })
	calls := s.Calls()
	if !calls[0].Early || !calls[0].Stream || calls[0].Claimed || !strings.Contains(calls[0].Error, "canceled") {
		t.Fatalf("trace %+v", calls)
	}
	if _, err := s.Finish(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Finish after the context was cancelled: %v", err)
	}
}

func testEngineCloseAbortsOpenStreams(t *testing.T, m isolationMode) {
	e, err := host.New(m.options(t)...)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := e.Stream(context.Background(), host.Request{})
	s.Feed([]byte("a = sleep(ms=20000)\n"))
	done := make(chan struct{})
	go func() { e.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a stream nobody finishes")
	}
	if _, err := s.Finish(); !errors.Is(err, host.ErrStreamDone) {
		t.Fatalf("Finish after Close: %v", err)
	}
}

func testTwoStreamsInARowDoNotSeeEachOther(t *testing.T, m isolationMode) {
	e := m.engine(t)
	first, _ := e.Stream(context.Background(), host.Request{Inputs: []byte(`{"k": 1}`)})
	first.Feed([]byte("a = lookup(key=inputs['k'])\n\nresult = a\n"))
	second, _ := e.Stream(context.Background(), host.Request{Inputs: []byte(`{"k": 2}`)})
	second.Feed([]byte("a = lookup(key=inputs['k'])\nresult = a\n"))
	r2, err2 := second.Finish()
	r1, err1 := first.Finish()
	if err1 != nil || err2 != nil || string(r1.Value) != "7" || string(r2.Value) != "14" {
		t.Fatalf("%v %v %s %s", err1, err2, r1.Value, r2.Value)
	}
	for _, c := range append(r1.Calls, r2.Calls...) {
		if c.Mismatch {
			t.Fatalf("a stream saw another's call: %+v", c)
		}
	}
	if len(r1.Calls) != 1 || len(r2.Calls) != 1 || string(r1.Calls[0].Args) != `{"key":1}` || string(r2.Calls[0].Args) != `{"key":2}` {
		t.Fatalf("traces %+v / %+v", r1.Calls, r2.Calls)
	}
	// A plain execution sees no stream state.
	mustValue(t, e, "result = lookup(key=3)", `{}`, `21`)
}

func testStreamSyntaxErrors(t *testing.T, m isolationMode) {
	e := m.engine(t)
	s, _ := e.Stream(context.Background(), host.Request{})
	s.Feed([]byte("if True:\n    x = (1 +\n"))
	s.Feed([]byte("2)\nresult = x\n"))
	if resp, err := s.Finish(); err != nil || string(resp.Value) != "3" {
		t.Fatalf("an incomplete prefix was an error: %v", err)
	}
	s, _ = e.Stream(context.Background(), host.Request{})
	s.Feed([]byte("x = (1 +\n"))
	resp, err := s.Finish()
	if !errors.Is(err, host.ErrGuest) || !strings.HasPrefix(resp.Error, "SyntaxError") {
		t.Fatalf("finished program's syntax error: %v", err)
	}
}

func testStreamSplitsUTF8AcrossChunks(t *testing.T, m isolationMode) {
	e := m.engine(t)
	s, _ := e.Stream(context.Background(), host.Request{})
	program := []byte("result = echo(text='ünï €')\n")
	for i := range program {
		s.Feed(program[i : i+1])
	}
	resp, err := s.Finish()
	if err != nil || string(resp.Value) != `{"text": "ünï €"}` {
		t.Fatalf("%v %s", err, resp.Value)
	}
}

func testStreamFinishHasADeadline(t *testing.T, m isolationMode) {
	e := m.engine(t, host.WithLimits(host.Limits{Timeout: 500 * time.Millisecond}))
	s, _ := e.Stream(context.Background(), host.Request{})
	time.Sleep(700 * time.Millisecond) // the model is slow: that is not the program's time
	s.Feed([]byte("while True:\n    pass\n"))
	resp, err := s.Finish()
	if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
		t.Fatalf("%v", err)
	}
	mustValue(t, e, "result = 1", `{}`, `1`)
}
