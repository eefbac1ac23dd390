package host_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// slowToAnalyse is legal and instant to run, but expensive to follow ahead
// of time: after `z.append(1)` the analysis asks of every known name whether
// its value reaches z, and y holds 20,000 lists of 65,536 elements. Unbounded,
// that walk took minutes; the guest's own analysis budget now cuts it short.
// The host's bound must hold whichever it does (the in-process package tests
// the interrupt against analysis with the guest's budget lifted).
const slowToAnalyse = "x = [0] * 65536\ny = [x] * 20000\nz = []\nz.append(1)\nresult = [len(y), z]\n"

// finishWithin runs Finish, failing the test if it has not returned within
// `bound`, a generous bound far beyond the deadline and its grace.
func finishWithin(t *testing.T, s *host.Stream, bound time.Duration) (*host.Response, error) {
	t.Helper()
	type outcome struct {
		resp *host.Response
		err  error
	}
	done := make(chan outcome, 1)
	go func() {
		resp, err := s.Finish()
		done <- outcome{resp, err}
	}()
	select {
	case o := <-done:
		return o.resp, o.err
	case <-time.After(bound):
		t.Fatalf("Finish did not return within %v: the analysis outlived the deadline", bound)
		return nil, nil
	}
}

// The analysis of chunks still running when Finish is called counts against
// the execution's deadline: Finish ends with a timeout (or, if the analysis
// gave up on the statement, with the program's value), and the guest is free
// for the next execution right after.
func TestStreamAnalysisRunningAtFinishCountsAgainstTheDeadline(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := engineIn(t, isolation, host.WithLimits(host.Limits{Timeout: 2 * time.Second}))
		s, err := e.Stream(context.Background(), host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Feed([]byte(slowToAnalyse)); err != nil {
			t.Fatal(err)
		}
		resp, err := finishWithin(t, s, 60*time.Second)
		switch {
		case err == nil:
			if string(resp.Value) != `[20000, [1]]` {
				t.Fatalf("value %s", resp.Value)
			}
		case errors.Is(err, host.ErrTimeout):
			if resp == nil || resp.Status != host.StatusTimeout {
				t.Fatalf("timeout without its status: %+v", resp)
			}
		default:
			t.Fatalf("Finish: %v (%s)", err, errorOf(resp))
		}
		// In process, the interpreter no longer follows the program: the
		// next execution gets it within its own deadline.
		mustValue(t, e, "result = 1", `{}`, `1`)
	})
}

// A stream's state in the in-process interpreter ends with the stream, however
// it ends: cancelled before, during or after its analysis, forgotten until
// its context expires, aborted mid-analysis, or finished after its deadline
// passed during the analysis (so its final execution never claims the state).
func TestEndedStreamsLeaveNoStateInTheInterpreter(t *testing.T) {
	before := streamStates(t)
	e, err := host.New(host.WithIsolation(host.Inproc), host.WithLimits(host.Limits{Timeout: 200 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 4
	for i := 0; i < rounds; i++ {
		// Cancelled at once: prefix_begin races the cancel.
		ctx, cancel := context.WithCancel(context.Background())
		if _, err := e.Stream(ctx, host.Request{}); err != nil {
			t.Fatal(err)
		}
		cancel()

		// Cancelled after a chunk was analysed.
		ctx, cancel = context.WithCancel(context.Background())
		s, err := e.Stream(ctx, host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		s.Feed([]byte("a = 1\n"))
		cancel()

		// Forgotten: its context expires while a chunk is being analysed.
		ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
		s, err = e.Stream(ctx, host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		s.Feed([]byte(slowToAnalyse))
		defer cancel()

		// Aborted while a chunk is being analysed.
		s, err = e.Stream(context.Background(), host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		s.Feed([]byte(slowToAnalyse))
		s.Abort()

		// Finished, the deadline passing during the analysis.
		s, err = e.Stream(context.Background(), host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		s.Feed([]byte(slowToAnalyse))
		if resp, err := finishWithin(t, s, 60*time.Second); !errors.Is(err, host.ErrTimeout) && (err != nil || string(resp.Value) != `[20000, [1]]`) {
			t.Fatalf("Finish: %v (%s)", err, errorOf(resp))
		}
	}
	// Close aborts what is still open and waits until every stream has let
	// go of the interpreter.
	closed := make(chan struct{})
	go func() { e.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(60 * time.Second):
		t.Fatal("Close waited for the streams' analysis")
	}
	if after := streamStates(t); after > before {
		t.Fatalf("the interpreter holds %d streams' state, %d before %d streams ended", after, before, 5*rounds)
	}
}

// streamStates is how many streams' state the in-process interpreter holds.
// In process there is no boundary, so a program can read bootstrap's table.
func streamStates(t *testing.T) int {
	t.Helper()
	resp, err := run(t, newEngine(t), "import bootstrap\nresult = len(bootstrap._streams)", `{}`)
	if err != nil {
		t.Fatalf("counting the streams' state: %v (%s)", err, errorOf(resp))
	}
	n, err := strconv.Atoi(string(resp.Value))
	if err != nil {
		t.Fatalf("state count %s: %v", resp.Value, err)
	}
	return n
}

// The analysis of a stream may take, in all, no more wall time than the
// execution itself may run: the host hands the guest the engine's timeout
// as the stream's analysis budget. (In process a program can read the
// state of an open stream.)
func TestStreamAnalysisBudgetIsTheTimeout(t *testing.T) {
	e := newEngine(t, host.WithLimits(host.Limits{Timeout: 1234 * time.Millisecond}))
	s, err := e.Stream(context.Background(), host.Request{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	if err := s.Feed([]byte("x = 1\n")); err != nil {
		t.Fatal(err)
	}
	probe := "import bootstrap\nresult = sorted(p.budget.stream_seconds for p in bootstrap._streams.values())"
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := run(t, e, probe, `{}`)
		if err != nil {
			t.Fatalf("reading the stream's budget: %v (%s)", err, errorOf(resp))
		}
		if string(resp.Value) == "[1.234]" {
			return
		}
		if string(resp.Value) != "[]" || time.Now().After(deadline) {
			t.Fatalf("the open stream's analysis budget is %s seconds, want [1.234]", resp.Value)
		}
		time.Sleep(10 * time.Millisecond) // prefix_begin runs on the stream's own goroutine
	}
}
