package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// newSandboxEngine is a sandboxed engine with the demo tools, for the tests
// of what only that mode has.
func newSandboxEngine(t testing.TB, opts ...host.Option) *host.Engine {
	t.Helper()
	return sandboxMode.engine(t, opts...)
}

func TestSandboxIsTheDefault(t *testing.T) {
	t.Setenv("SPINE_GUEST", testenv.GuestBinary(t))
	e, err := host.New(host.WithTools(demotools.Tools()...))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if level := e.Isolation(); !strings.HasPrefix(level, "sandbox: seccomp") || !strings.Contains(level, "landlock") {
		t.Fatalf("level %q", level)
	}
	resp, err := e.Execute(context.Background(), host.Request{Source: "result = lookup(key=inputs['k'])", Inputs: []byte(`{"k": 5}`)})
	if err != nil || string(resp.Value) != "35" || resp.Isolation != "sandbox" {
		t.Fatalf("%v %s %q", err, resp.Value, resp.Isolation)
	}
}

func TestSandboxFailsClosedWithoutItsLauncher(t *testing.T) {
	t.Setenv("SPINE_GUEST", "")
	if _, err := host.New(host.WithSandbox(host.SandboxOptions{Binary: "/nonexistent/spine-guest"})); err == nil {
		t.Fatal("a sandbox engine started without its launcher")
	}
}

func TestSandboxStatuses(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	cases := []struct {
		source string
		status host.Status
		kind   error
	}{
		{"result = 1", host.StatusOK, nil},
		{"raise ValueError('x')", host.StatusError, host.ErrGuest},
		{"while True:\n    pass", host.StatusTimeout, host.ErrTimeout},
		{"x = 10**10**8", host.StatusTimeout, host.ErrTimeout},
		{"import os\nos._exit(3)", host.StatusCrashed, host.ErrSandbox},
		{"import os\nos.abort()", host.StatusCrashed, host.ErrSandbox},
		{"import os\nos.execv('/bin/sh', ['sh'])", host.StatusViolation, host.ErrSandbox},
		{"x = bytearray(4 << 30)", host.StatusMemory, host.ErrSandbox},
	}
	for _, c := range cases {
		start := time.Now()
		resp, err := e.Execute(context.Background(), host.Request{Source: c.source})
		if resp == nil || resp.Status != c.status || (c.kind == nil) != (err == nil) || (c.kind != nil && !errors.Is(err, c.kind)) {
			t.Errorf("%q: status %v err %v", c.source, resp, err)
		}
		// Generous: each case ends by its own cause or the 1 s deadline (plus
		// the kill grace); the bound catches a hang, not a slow machine.
		if time.Since(start) > 20*time.Second {
			t.Errorf("%q took %v", c.source, time.Since(start))
		}
		// The engine survives every fault.
		if r, err := e.Execute(context.Background(), host.Request{Source: "result = lookup(key=1)"}); err != nil || string(r.Value) != "7" {
			t.Fatalf("after %q: %v", c.source, err)
		}
	}
}

func TestSandboxStream(t *testing.T) {
	e := newSandboxEngine(t)
	s, err := e.Stream(context.Background(), host.Request{Inputs: []byte(`{"k": 3}`)})
	if err != nil {
		t.Fatal(err)
	}
	s.Feed([]byte("a = lookup(key=inputs['k'])\n"))
	waitFor(t, "the stream's call to start", func() bool { return s.Started() == 1 })
	s.Feed([]byte("result = [a, emit(value=a)]\n"))
	resp, err := s.Finish()
	if err != nil || string(resp.Value) != "[21, 1]" {
		t.Fatalf("%v %s", err, resp.Value)
	}
}
