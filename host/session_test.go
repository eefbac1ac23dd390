package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

func step(t *testing.T, s *host.Session, source string) *host.Response {
	t.Helper()
	resp, err := s.Execute(context.Background(), host.Request{Source: source})
	if resp == nil {
		t.Fatalf("%q: no response: %v", source, err)
	}
	return resp
}

func openSession(t *testing.T, e *host.Engine, opts host.SessionOptions) *host.Session {
	t.Helper()
	s, err := e.Session(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSessionStateCarriesAndSurvivesErrors(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t)
		s := openSession(t, e, host.SessionOptions{})
		step(t, s, "import json\nx = 20\ndef double(v):\n    return 2 * v\nclass Box:\n    pass\n")
		if r := step(t, s, "y = double(x) + 2\nraise ValueError('boom')\n"); r.Status != host.StatusError || r.Error != "ValueError: boom" {
			t.Fatalf("the failing step: %+v", r)
		}
		r := step(t, s, "print('step 3')\nresult = json.dumps({'y': y, 'box': type(Box()).__name__})\n")
		if r.Status != host.StatusOK || string(r.Value) != `"{\"y\": 42, \"box\": \"Box\"}"` || r.Stdout != "step 3\n" {
			t.Fatalf("state did not carry: %+v", r)
		}
		// result starts unset in every step; PLM and tools work in a session.
		r, err := s.Execute(context.Background(), host.Request{Source: "a = lookup(key=x)\nb = lookup(key=1)\nresult = [a, b]\n", PLM: true})
		if err != nil || string(r.Value) != "[140, 7]" {
			t.Fatalf("PLM step: %v %+v", err, r)
		}
		if r := step(t, s, "z = 1\n"); string(r.Value) != "null" {
			t.Errorf("an earlier step's result leaked: %s", r.Value)
		}
		// One-shot executions and other sessions see none of it.
		if r, _ := e.Execute(context.Background(), host.Request{Source: "result = 'x' in globals()"}); string(r.Value) != "false" {
			t.Errorf("a one-shot execution saw the session's x")
		}
		other := openSession(t, e, host.SessionOptions{})
		if r := step(t, other, "result = 'x' in globals()"); string(r.Value) != "false" {
			t.Errorf("another session saw x")
		}
		s.Close()
		if _, err := s.Execute(context.Background(), host.Request{Source: "result = x"}); !errors.Is(err, host.ErrSessionGone) {
			t.Errorf("after Close: %v", err)
		}
	})
}

func TestSessionLimits(t *testing.T) {
	e := engineIn(t, host.Inproc)
	s := openSession(t, e, host.SessionOptions{MaxExecutions: 2})
	step(t, s, "x = 1")
	step(t, s, "x += 1")
	if _, err := s.Execute(context.Background(), host.Request{Source: "x"}); !errors.Is(err, host.ErrSessionGone) ||
		!errors.Is(s.Err(), host.ErrSessionGone) {
		t.Errorf("past MaxExecutions: %v", err)
	}
	// Each execution has its own limits: a timeout ends that step only.
	s = openSession(t, e, host.SessionOptions{})
	step(t, s, "x = 5")
	r, err := s.Execute(context.Background(), host.Request{Source: "while True: pass", Limits: host.Limits{Timeout: 200 * time.Millisecond}})
	if !errors.Is(err, host.ErrTimeout) || r.Status != host.StatusTimeout {
		t.Fatalf("%v %+v", err, r)
	}
	if r := step(t, s, "result = x"); string(r.Value) != "5" {
		t.Errorf("after a timeout: %+v", r)
	}
}

func TestSessionChildKilledFromOutsideEndsIt(t *testing.T) {
	e := engineIn(t, host.Sandbox)
	s := openSession(t, e, host.SessionOptions{})
	step(t, s, "x = 1")
	pid := s.ChildPID()
	if pid <= 0 {
		t.Fatalf("pid %d", pid)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, err := s.Execute(context.Background(), host.Request{Source: "result = x"})
	if !errors.Is(err, host.ErrSessionGone) && !errors.Is(err, host.ErrSandbox) {
		t.Fatalf("the step after the kill: %v", err)
	}
	if _, err := s.Execute(context.Background(), host.Request{Source: "result = 1"}); !errors.Is(err, host.ErrSessionGone) {
		t.Fatalf("the session did not report it is gone: %v", err)
	}
	if r, err := e.Execute(context.Background(), host.Request{Source: "result = 2"}); err != nil || string(r.Value) != "2" {
		t.Errorf("the engine after the kill: %v", err)
	}
}

func TestSessionIdleTimeoutFreesTheChild(t *testing.T) {
	e := engineIn(t, host.Sandbox)
	s := openSession(t, e, host.SessionOptions{IdleTimeout: 150 * time.Millisecond})
	step(t, s, "x = 1")
	pid := s.ChildPID()
	deadline := time.Now().Add(10 * time.Second)
	for s.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !errors.Is(s.Err(), host.ErrSessionGone) {
		t.Fatalf("still alive: %v", s.Err())
	}
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the idle session's child %d still runs", pid)
	}
	if _, err := s.Execute(context.Background(), host.Request{Source: "result = x"}); !errors.Is(err, host.ErrSessionGone) {
		t.Errorf("%v", err)
	}
}

// alive says whether a process exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	var ignoredPID int
	var name, state string
	fmt.Sscanf(string(data), "%d %s %s", &ignoredPID, &name, &state)
	return state != "Z" && state != "X"
}

// TestManyConcurrentSessionsStayIsolated: 100 sessions at once, each
// keeping its own value across two steps.
func TestManyConcurrentSessionsStayIsolated(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t, host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t), MaxChildren: 104, Prefork: 2}))
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for i := 0; i < 100; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				s, err := e.Session(context.Background(), host.SessionOptions{})
				if err != nil {
					errs <- err
					return
				}
				defer s.Close()
				if _, err := s.Execute(context.Background(), host.Request{Source: fmt.Sprintf("mine = %d", i)}); err != nil {
					errs <- err
					return
				}
				r, err := s.Execute(context.Background(), host.Request{Source: "result = mine"})
				if err != nil || string(r.Value) != fmt.Sprint(i) {
					errs <- fmt.Errorf("session %d read %v (%v)", i, r, err)
				}
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

func TestSessionOverItsMemoryEnds(t *testing.T) {
	e := engineIn(t, host.Sandbox)
	s := openSession(t, e, host.SessionOptions{MemoryBytes: 64 << 20})
	step(t, s, "x = 1")
	if err := s.Err(); err != nil {
		t.Fatalf("a small step ended the session: %v", err)
	}
	r := step(t, s, "big = bytearray(128 << 20)\nresult = len(big)")
	if r.Status != host.StatusOK {
		t.Fatalf("%+v", r)
	}
	if err := s.Err(); !errors.Is(err, host.ErrSessionGone) || !strings.Contains(err.Error(), "memory limit") {
		t.Fatalf("over its memory: %v", err)
	}
}

func TestSessionStream(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t)
		s := openSession(t, e, host.SessionOptions{})
		step(t, s, "x = 10\n")
		stream, err := s.Stream(context.Background(), host.Request{})
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []string{"a = lookup(key=2)\n", "y = x + a\n", "result = y\n"} {
			if err := stream.Feed([]byte(chunk)); err != nil {
				t.Fatal(err)
			}
		}
		resp, err := stream.Finish()
		if err != nil || string(resp.Value) != "24" {
			t.Fatalf("%v %+v", err, resp)
		}
		if r := step(t, s, "result = y * 2\n"); string(r.Value) != "48" {
			t.Errorf("after the stream: %+v", r)
		}
	})
}

// A session's executions cannot be suspended (no journal rebuilds a
// namespace): a call that needs approval raises PermissionError there.
func TestSessionRefusesCallsNeedingApproval(t *testing.T) {
	e := engineIn(t, host.Inproc)
	s := openSession(t, e, host.SessionOptions{})
	r, err := s.Execute(context.Background(), host.Request{RequireApproval: []string{"lookup"},
		Source: "try:\n    lookup(key=1)\nexcept PermissionError as e:\n    result = str(e)\n"})
	if err != nil || !strings.Contains(string(r.Value), "cannot be suspended") {
		t.Fatalf("%v %+v", err, r)
	}
	if r := step(t, s, "result = lookup(key=1)"); string(r.Value) != "7" {
		t.Errorf("without approval asked: %+v", r)
	}
}

func TestSessionLifetimeStopsARunningExecution(t *testing.T) {
	e := engineIn(t, host.Sandbox)
	s := openSession(t, e, host.SessionOptions{Lifetime: 300 * time.Millisecond})
	start := time.Now()
	r, _ := s.Execute(context.Background(), host.Request{Source: "while True: pass", Limits: host.Limits{Timeout: 20 * time.Second}})
	if r == nil || r.Status == host.StatusOK || time.Since(start) > 10*time.Second {
		t.Fatalf("%+v after %v", r, time.Since(start))
	}
	if !errors.Is(s.Err(), host.ErrSessionGone) || !strings.Contains(s.Err().Error(), "lifetime") {
		t.Errorf("%v", s.Err())
	}
}

// A thread a step leaves behind that calls a tool between executions gets
// RuntimeError in the guest: nothing crosses to the host while no execution
// of the session runs, and the session goes on.
func TestSessionStrayThreadCallingBetweenSteps(t *testing.T) {
	e := engineIn(t, host.Sandbox)
	s := openSession(t, e, host.SessionOptions{})
	step(t, s, "import threading, time\nerrors = []\ndef later():\n    time.sleep(0.2)\n    try:\n        lookup(key=1)\n"+
		"    except RuntimeError as e:\n        errors.append(str(e))\nthread = threading.Thread(target=later)\nthread.start()\n")
	time.Sleep(500 * time.Millisecond)
	r := step(t, s, "thread.join()\nresult = errors\n")
	if r.Status != host.StatusOK || string(r.Value) != `["spine: no execution is running"]` || len(r.Calls) != 0 {
		t.Fatalf("%+v", r)
	}
	if err := s.Err(); err != nil {
		t.Errorf("the session ended: %v", err)
	}
}
