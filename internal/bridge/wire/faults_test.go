package wire

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// Each fault ends its own execution with the error that names it; the pool
// goes on serving.
var faults = []struct {
	name, source string
	want         error
	text         string
}{
	{"segfault", "import os\nos.kill(os.getpid(), 11)", ErrCrashed, "signal"},
	{"abort", "import os\nos.abort()", ErrCrashed, "aborted"},
	{"os_exit", "import os\nos._exit(3)", ErrCrashed, "status 3"},
	{"closes_socket", "import os, time\nos.close(3)\nresult = 1", ErrCrashed, "status 0 before it answered"},
	{"malformed_frame", "import os, time\nos.write(3, b'Q' + bytes(4))\ntime.sleep(5)", ErrViolation, "unexpected frame"},
	{"oversized_frame", "import os, time\nos.write(3, b'z' + (2**31).to_bytes(4, 'little'))\ntime.sleep(5)", ErrViolation, "exceeds the limit"},
	{"seccomp", "import os\nos.fork()", ErrViolation, "seccomp"},
}

func TestFaults(t *testing.T) {
	p := sharedPool(t)
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			o := runIn(t, p, f.source, 10*time.Second, false)
			if !errors.Is(o.err, f.want) || !strings.Contains(o.err.Error(), f.text) {
				t.Fatalf("want %v mentioning %q, got %v", f.want, f.text, o.err)
			}
			if got := mustValue(t, p, "result = 'alive'"); got != `"alive"` {
				t.Fatal(got)
			}
		})
	}
}

func TestKilledFromOutside(t *testing.T) {
	_, g := acquire(t)
	c := g.(*sandboxGuest).c
	time.AfterFunc(200*time.Millisecond, c.kill) // as an OOM killer or an operator would
	_, err := g.Execute(request("while True: pass", false))
	g.Release()
	if !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("err %v", err)
	}
}

func TestPreforkedChildDiedWhileWaiting(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	mustValue(t, p, "result = 0") // the pool has forked its replacement by now or soon
	var c *child
	for deadline := time.Now().Add(10 * time.Second); c == nil; {
		if c = p.ready.pop(); c == nil {
			if time.Now().After(deadline) {
				t.Fatal("no child was forked ahead")
			}
			select {
			case <-p.ready.signal:
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	c.kill()
	c.wait(5 * time.Second)
	p.ready.push(c) // a dead child waiting in the pool must be skipped, not served
	if got := mustValue(t, p, "result = 'fresh'"); got != `"fresh"` {
		t.Fatal(got)
	}
}

// After many faults in a row, descriptors, goroutines and processes are back
// where they started.
func TestNoLeaksAfterFaults(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	mustValue(t, p, "result = 1")
	settle := func() (int, int, int) {
		// Wait (up to a generous 30 s) for the pool to refill and reap; then count.
		var fds, gs, procs int
		for i := 0; i < 600; i++ {
			time.Sleep(50 * time.Millisecond)
			fds, gs, procs = countFDs(t), runtime.NumGoroutine(), countChildren(t, p.zygotePID())
			if procs == 2 && p.ready.len() == 2 {
				break
			}
		}
		return fds, gs, procs
	}
	fds0, gs0, procs0 := settle()
	const rounds = 1000
	for i := 0; i < rounds; i++ {
		f := faults[i%len(faults)]
		o := runIn(t, p, f.source, 10*time.Second, false)
		if !errors.Is(o.err, f.want) {
			t.Fatalf("round %d (%s): %v", i, f.name, o.err)
		}
	}
	if got := mustValue(t, p, "result = 'still serving'"); got != `"still serving"` {
		t.Fatal(got)
	}
	var fds, gs, procs int
	for i := 0; i < 20; i++ {
		fds, gs, procs = settle()
		if fds <= fds0 && gs <= gs0 && procs <= procs0 {
			return
		}
	}
	t.Fatalf("after %d faults: fds %d (was %d), goroutines %d (was %d), children %d (was %d)",
		rounds, fds, fds0, gs, gs0, procs, procs0)
}

func countFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// countChildren counts live processes whose parent is the zygote.
func countChildren(t *testing.T, zygote int) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if state, ppid, ok := procStat(e.Name()); ok && ppid == zygote && state != "Z" {
			n++
		}
	}
	return n
}

// procStat reads a process's state letter (R, S, T, Z...) and parent from
// /proc/PID/stat.
func procStat(pid string) (state string, ppid int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid ...: comm may hold spaces, so cut at the last ')'.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	_, err = fmt.Sscan(s[i+1:], &state, &ppid)
	return state, ppid, err == nil
}
