package wire

import (
	"context"
	"encoding/json"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// The calling thread's capabilities (capget(2) and capset(2) act on one
// thread: dropping one here leaves every other thread as it was).
type capHeader struct {
	version uint32
	pid     int32
}

type capData struct{ effective, permitted, inheritable uint32 }

const (
	capVersion3 = 0x20080522
	capSysNice  = 23
	rlimitNice  = 13 // RLIMIT_NICE
)

func threadCaps(t *testing.T) [2]capData {
	t.Helper()
	header := capHeader{version: capVersion3}
	var data [2]capData
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CAPGET, uintptr(unsafe.Pointer(&header)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		t.Fatalf("capget: %v", errno)
	}
	return data
}

func setThreadCaps(data [2]capData) syscall.Errno {
	header := capHeader{version: capVersion3}
	_, _, errno := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&header)), uintptr(unsafe.Pointer(&data[0])), 0)
	return errno
}

// withNiceLimitZero runs the test with RLIMIT_NICE's soft limit at 0, the
// usual default, so that only CAP_SYS_NICE can allow leaving SCHED_IDLE.
func withNiceLimitZero(t *testing.T) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(rlimitNice, &old); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(rlimitNice, &syscall.Rlimit{Cur: 0, Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(rlimitNice, &old) })
}

func niceOf(t *testing.T, tid int) int {
	t.Helper()
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		t.Fatal(err)
	}
	return 20 - raw
}

// The probe answers what the kernel allows: with CAP_SYS_NICE a task may
// leave SCHED_IDLE, without it (and within an RLIMIT_NICE of 0) it may
// not, and the host must not put creation in SCHED_IDLE, which it could
// never take the zygote or a child out of again. Either way the probing
// thread keeps its nice value.
func TestMayLeaveIdleOnlyWithCapSysNice(t *testing.T) {
	withNiceLimitZero(t)
	type answer struct {
		with, without bool
		hadCap        bool
		niceBefore    int
		niceAfter     int
		err           string
	}
	done := make(chan answer)
	go func() {
		runtime.LockOSThread()
		var a answer
		caps := threadCaps(t)
		a.hadCap = caps[0].effective&(1<<capSysNice) != 0
		tid := syscall.Gettid()
		a.niceBefore = niceOf(t, tid)
		a.with = mayRaiseHere()
		dropped := caps
		dropped[0].effective &^= 1 << capSysNice
		if errno := setThreadCaps(dropped); errno != 0 {
			a.err = "capset: " + errno.Error()
		} else {
			a.without = mayRaiseHere()
			if errno := setThreadCaps(caps); errno != 0 {
				// The thread must not serve other goroutines without its
				// capability: leave it locked, so that it ends with this one.
				a.err = "restoring the capabilities: " + errno.Error()
				done <- a
				return
			}
		}
		a.niceAfter = niceOf(t, tid)
		runtime.UnlockOSThread()
		done <- a
	}()
	a := <-done
	if a.err != "" {
		t.Fatal(a.err)
	}
	if a.with != a.hadCap {
		t.Errorf("with CAP_SYS_NICE %v in the effective set, the probe answered %v", a.hadCap, a.with)
	}
	if a.without {
		t.Error("without CAP_SYS_NICE and with RLIMIT_NICE 0, the probe said a task may leave SCHED_IDLE")
	}
	if a.niceAfter != a.niceBefore {
		t.Errorf("the probe left its thread at nice %d, it was %d", a.niceAfter, a.niceBefore)
	}
	if mayLeaveIdle() != a.hadCap {
		t.Errorf("mayLeaveIdle() = %v on a process whose thread has CAP_SYS_NICE %v", !a.hadCap, a.hadCap)
	}
}

func needLeaveIdle(t *testing.T) {
	t.Helper()
	if !mayLeaveIdle() {
		t.Skip("this process may not take a task out of SCHED_IDLE (no CAP_SYS_NICE): the pool leaves priorities alone, which TestMayLeaveIdleOnlyWithCapSysNice checks")
	}
}

// policyOf is the scheduling policy of the task pid (-1 when unknown).
func policyOf(pid int) int {
	policy, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(pid), 0, 0)
	if errno != 0 {
		return -1
	}
	return int(policy)
}

func policyIs(t *testing.T, what string, pid, want int) {
	t.Helper()
	if got := policyOf(pid); got != want {
		t.Fatalf("%s (pid %d) runs policy %d, want %d", what, pid, got, want)
	}
}

// The gate's priority on real processes: the zygote and every starting
// child run SCHED_IDLE while creation may wait, SCHED_OTHER while an
// Acquire waits for it or a busy stretch has lasted maxHold; a child
// arriving takes the policy of the moment; a taken child runs SCHED_OTHER;
// a closing pool no longer touches the zygote's pid.
func TestCreationPriorityFollowsTheWaitingAcquires(t *testing.T) {
	needLeaveIdle(t)
	zygote, _ := processChild(t) // a stand-in: any process the host may set
	zygotePID := zygote.hostPID()
	spares, sent := true, 0
	g := policyGate(&spares, &sent)
	background := true
	g.background = func() bool { return background }
	g.prio = newCreationPriority(zygotePID)
	if g.prio == nil {
		t.Fatal("no creation priority though the process may leave SCHED_IDLE")
	}
	g.recheck()
	policyIs(t, "the zygote, nobody waiting", zygotePID, schedIdle)
	c, peer := processChild(t)
	g.arrived(c)
	if !sentGo(t, peer) {
		t.Fatal("a child arriving with nothing running had no go frame")
	}
	policyIs(t, "a child arriving, nobody waiting", c.hostPID(), schedIdle)

	background = false // an Acquire waits
	g.recheck()
	policyIs(t, "the zygote, an Acquire waiting", zygotePID, schedOther)
	policyIs(t, "a starting child, an Acquire waiting", c.hostPID(), schedOther)
	late, latePeer := processChild(t)
	setPolicy(late.hostPID(), schedIdle) // forked while creation was in the background
	g.arrived(late)
	sentGo(t, latePeer)
	policyIs(t, "a child arriving while an Acquire waits", late.hostPID(), schedOther)

	background = true
	g.recheck()
	policyIs(t, "the zygote, nobody waiting again", zygotePID, schedIdle)
	policyIs(t, "a starting child, nobody waiting again", c.hostPID(), schedIdle)

	// A busy stretch held past maxHold is sustained load: creation runs in
	// the foreground until the next stretch begins.
	g.burstGap = 0 // every execution after an idle moment begins a stretch
	f := g.begin()
	g.expire(g.stretch)
	policyIs(t, "the zygote, a busy stretch past maxHold", zygotePID, schedOther)
	g.end(f)
	policyIs(t, "the zygote, between executions of that stretch", zygotePID, schedOther)
	f = g.begin()
	policyIs(t, "the zygote, a new busy stretch", zygotePID, schedIdle)
	g.end(f)

	g.left(c) // ready: the pool holds it, the gate no longer does
	g.prio.taken(c)
	policyIs(t, "a taken child", c.hostPID(), schedOther)
	background = false
	g.recheck()
	background = true
	g.recheck()
	policyIs(t, "a child that left the gate", c.hostPID(), schedOther)

	g.closing()
	background = false
	g.recheck()
	policyIs(t, "the zygote of a closing pool", zygotePID, schedIdle)
}

// A real pool: once a spare is ready and nobody waits, its zygote runs
// SCHED_IDLE; every execution runs SCHED_OTHER (read by a tool while the
// program runs), also in children forked while creation was in the
// background; an Acquire waiting on a full pool brings the zygote back to
// SCHED_OTHER, and it goes back to SCHED_IDLE once that Acquire has its
// child.
func TestPoolCreatesInTheBackgroundAndExecutesInTheForeground(t *testing.T) {
	needLeaveIdle(t)
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1, MaxChildren: 2, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// No busy stretch expires: only the waiting Acquire may bring creation
	// to the foreground.
	p.gate.mu.Lock()
	p.gate.maxHold = time.Hour
	p.gate.mu.Unlock()
	zygote := p.zygotePID()
	waitUntil(t, "the zygote in the background", func() bool { return policyOf(zygote) == schedIdle })

	var childPID int
	policy := mustTool(t, "policy", false, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		return json.Marshal(policyOf(childPID))
	})
	req, _ := json.Marshal(map[string]any{"source": "result = policy()", "inputs": map[string]any{},
		"manifest": json.RawMessage(`[{"name":"policy","speculative":false}]`)})
	// The first child was forked before any spare was ready; the next ones
	// in the background.
	for i := 0; i < 3; i++ {
		waitUntil(t, "a spare ready", func() bool { return p.counts().Spare == 1 })
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		s := bridge.NewSession(ctx, bridge.Config{Tools: map[string]*bridge.Tool{"policy": policy}, Limits: bridge.Limits{MaxToolCalls: 10, MaxArgBytes: 1 << 16}})
		g, err := p.Acquire(s)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		childPID = g.(*sandboxGuest).c.hostPID()
		result, err := g.Execute(req)
		g.Release()
		s.Close()
		cancel()
		if err := valueIs(result, err, "0"); err != nil {
			t.Fatalf("execution %d, its child's policy read by a tool while it ran (0 is SCHED_OTHER, 5 SCHED_IDLE): %v", i+1, err)
		}
	}

	release := holdAll(t, p, 2)
	waitUntil(t, "the zygote in the background with the pool full", func() bool { return policyOf(zygote) == schedIdle })
	done := make(chan error, 1)
	go func() {
		result, err := runWith(p, testTools(t), testManifest, "result = add(X=2, Y=3)", 60*time.Second)
		done <- valueIs(result, err, "5")
	}()
	waitUntil(t, "an Acquire waiting", func() bool { return p.counts().Waiting == 1 })
	waitUntil(t, "the zygote in the foreground while an Acquire waits", func() bool { return policyOf(zygote) == schedOther })
	release()
	if err := <-done; err != nil {
		t.Fatalf("the execution that waited: %v", err)
	}
	waitUntil(t, "the zygote back in the background", func() bool { return policyOf(zygote) == schedIdle })
}
