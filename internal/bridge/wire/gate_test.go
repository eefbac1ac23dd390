package wire

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// gatedPool is a pool of two spares (lowWater 1) whose creation gate holds
// for as long as an execution runs (no maxHold within a test's life), ready
// to the full.
func gatedPool(t *testing.T) *Pool {
	t.Helper()
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 2, MaxChildren: 6, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	p.gate.mu.Lock()
	p.gate.maxHold = time.Hour
	p.gate.mu.Unlock()
	waitUntil(t, "two spares", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	return p
}

// take acquires a child, which counts as an execution running until the
// returned release.
func take(t *testing.T, p *Pool) (release func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	s := bridge.NewSession(ctx, bridge.Config{})
	g, err := p.Acquire(s)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			g.Release()
			s.Close()
			cancel()
		}
	}
	t.Cleanup(release)
	return release
}

// waitingChild makes the zygote fork one child beyond what the pool asked
// for, bypassing the gate's deferral (a fork already under way when an
// execution starts), and returns it once it has arrived: the gate holds
// its go frame back, so it waits in its first read, neither confined nor
// warmed up.
func waitingChild(t *testing.T, p *Pool) *child {
	t.Helper()
	p.mu.Lock()
	p.starting++
	p.mu.Unlock()
	p.gate.mu.Lock()
	p.gate.inFlight++
	p.gate.markLocked() // what the zygote does now runs beside the execution
	p.gate.mu.Unlock()
	p.sendFork()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Microsecond) {
		for c, state := range gateStarting(p) {
			if state != awaitingGo {
				t.Fatalf("a child arrived during an execution, and the gate let it start (state %d)", state)
			}
			return c
		}
		if time.Now().After(deadline) {
			_, _, inFlight := gateState(p)
			t.Fatalf("no child arrived (pool: %s, forks in flight %d%s)", p.counts(), inFlight, p.diagnostics())
		}
	}
}

// gateStarting is a copy of the gate's starting children and their states.
func gateStarting(p *Pool) map[*child]startState {
	p.gate.mu.Lock()
	defer p.gate.mu.Unlock()
	starting := make(map[*child]startState, len(p.gate.starting))
	for c, state := range p.gate.starting {
		starting[c] = state
	}
	return starting
}

// seccompMode is the Seccomp field of a process's status: "0" before the
// child confines itself, "2" (filter) after.
func seccompMode(t *testing.T, pid int) string {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if value, ok := strings.CutPrefix(line, "Seccomp:"); ok {
			return strings.TrimSpace(value)
		}
	}
	t.Fatalf("no Seccomp field in /proc/%d/status", pid)
	return ""
}

// processState is a process's state letter, or "gone".
func processState(t *testing.T, pid int) string {
	t.Helper()
	state, _, ok := procStat(strconv.Itoa(pid))
	if !ok {
		return "gone"
	}
	return state
}

func gateState(p *Pool) (held bool, deferred, inFlight int) {
	p.gate.mu.Lock()
	defer p.gate.mu.Unlock()
	return p.gate.held, p.gate.deferred, p.gate.inFlight
}

// running counts an execution in for the gate, as a session's exchange
// does, without taking a child; the returned func counts it out.
func running(t *testing.T, p *Pool) (ended func()) {
	f := p.gate.begin()
	ended = func() { p.gate.end(f) }
	t.Cleanup(ended)
	return ended
}

// While an execution runs and a spare is ready, a released child's
// replacement is not forked; it is once no execution runs.
func TestGateDefersForksWhileAnExecutionRuns(t *testing.T) {
	p := gatedPool(t)
	ended := running(t, p)
	take(t, p)() // its replacement waits for the execution still running
	waitUntil(t, "the replacement's fork held back", func() bool { _, deferred, _ := gateState(p); return deferred == 1 })
	held, _, inFlight := gateState(p)
	if c := p.counts(); !held || inFlight != 0 || c.Spare != 1 || c.Starting != 1 {
		t.Fatalf("held %v, forks in flight %d, %s: want held, none in flight, one spare, one starting", held, inFlight, c)
	}
	ended()
	waitUntil(t, "both spares after the execution", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	if held, deferred, _ := gateState(p); held || deferred != 0 {
		t.Fatalf("after the execution: held %v, forks held back %d", held, deferred)
	}
	if ended, beside := p.Beside(); ended != 2 || beside != 0 {
		t.Fatalf("%d of %d executions ran beside a child's creation, want 0 of 2", beside, ended)
	}
}

// A child whose fork was under way when an execution started waits for its
// go frame: it stays unconfined and unready, asleep in its first read, until
// the execution ends; then it confines itself, warms up and serves.
func TestGateHoldsTheGoOfAChildForkedBesideAnExecution(t *testing.T) {
	p := gatedPool(t)
	release := take(t, p)
	c := waitingChild(t, p)
	pid := c.hostPID()
	time.Sleep(200 * time.Millisecond) // what a child that had started would do in that time: all of it
	if state := gateStarting(p)[c]; state != awaitingGo {
		t.Fatalf("while the execution runs the child's state is %d, want awaiting its go frame", state)
	}
	if mode, state := seccompMode(t, pid), processState(t, pid); mode != "0" || state != "S" {
		t.Fatalf("while it waits the child is in seccomp mode %s and state %s, want 0 (not confined) and S (asleep)", mode, state)
	}
	if got := p.counts(); got.Starting != 1 || got.Spare != 1 {
		t.Fatalf("while it waits: %s, want one starting and one spare", got)
	}
	release()
	waitUntil(t, "the waiting child to become a spare", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	if mode := seccompMode(t, pid); mode != "2" {
		t.Fatalf("the spare is in seccomp mode %s, want 2 (filter)", mode)
	}
	if got := mustValue(t, p, "result = 'served'"); got != `"served"` {
		t.Fatal(got)
	}
	if ended, beside := p.Beside(); ended != 2 || beside != 1 {
		t.Fatalf("%d of %d executions ran beside a child's creation, want 1 (the fork under way) of 2", beside, ended)
	}
}

// With no spare left, creation does not wait for the executions: the pool
// makes children while they run.
func TestGateLetsADrainedPoolCreateAtOnce(t *testing.T) {
	p := gatedPool(t)
	first := take(t, p)
	second := take(t, p) // the last spare: its replacement is forked at once
	waitUntil(t, "a spare made while two executions run", func() bool { return p.counts().Spare >= 1 })
	if held, _, _ := gateState(p); !held {
		t.Fatal("a spare is ready again and two executions run, but the gate does not hold")
	}
	first()
	second()
	// The first ran when the fork went out (the second may have begun only
	// once its child was ready, on a loaded machine).
	if ended, beside := p.Beside(); ended != 2 || beside < 1 {
		t.Fatalf("%d of %d executions ran beside a child's creation, want the fork beside the first", beside, ended)
	}
}

// One busy stretch holds creation for maxHold at most: a long execution
// does not keep a child from being made.
func TestGateHoldsAtMostMaxHold(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 2, MaxChildren: 6, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitUntil(t, "two spares", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	running(t, p)
	take(t, p)() // its replacement is held back, then forked at maxHold
	waitUntil(t, "the replacement made while the execution still runs", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	if held, deferred, _ := gateState(p); held || deferred != 0 {
		t.Fatalf("past maxHold: held %v, forks held back %d", held, deferred)
	}
}

// A child killed from outside while it waits for its go frame is
// replaced, and the gate never waits on it.
func TestGateSurvivesAWaitingChildKilled(t *testing.T) {
	p := gatedPool(t)
	release := take(t, p)
	waitingChild(t, p).kill()
	waitUntil(t, "the gate to forget the killed child", func() bool {
		p.gate.mu.Lock()
		defer p.gate.mu.Unlock()
		return len(p.gate.starting) == 0
	})
	release()
	waitUntil(t, "the pool refilled", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	if got := mustValue(t, p, "result = 'after the kill'"); got != `"after the kill"` {
		t.Fatal(got)
	}
	if err := p.unready.err(); err != nil {
		t.Fatalf("a child killed from outside counted as one that could not start: %v", err)
	}
}

// The zygote dying while the gate holds a child's go wedges nothing: the
// execution's release returns, the next Acquire fails with ErrCrashed, and
// Close returns.
func TestGateSurvivesTheZygoteDying(t *testing.T) {
	p := gatedPool(t)
	release := take(t, p)
	pid := waitingChild(t, p).hostPID()
	if err := syscall.Kill(p.zygotePID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.dead
	release()
	waitUntil(t, "the waiting child to die with the zygote", func() bool {
		p.gate.mu.Lock()
		defer p.gate.mu.Unlock()
		return len(p.gate.starting) == 0 && processState(t, pid) == "gone"
	})
	// The spares died with the zygote: Acquire skips them and fails, or
	// the child it took is gone.
	if o := runIn(t, p, "result = 1", 10*time.Second, false); !errors.Is(o.err, ErrCrashed) {
		t.Fatalf("after the zygote died: %v", o.err)
	}
	p.Close()
}

// policyGate is a gate without a pool: enough spares as *spares says, and
// the fork requests it sends counted in *sent.
func policyGate(spares *bool, sent *int) *creationGate {
	g := newCreationGate(func() bool { return *spares }, func() bool { return false }, func() { *sent++ })
	g.maxHold = time.Hour
	return g
}

// The gate holds exactly while an execution runs and spares are enough; a
// fork asked for meanwhile goes out when it opens, for either reason.
func TestGateHoldsOnlyWhileExecutionsRunWithSparesEnough(t *testing.T) {
	spares, sent := true, 0
	g := policyGate(&spares, &sent)
	if !g.fork() || g.held {
		t.Fatal("with nothing running a fork waited")
	}
	f := g.begin()
	if !g.held || g.fork() || sent != 0 {
		t.Fatalf("while an execution runs: held %v, sent %d", g.held, sent)
	}
	spares = false
	g.recheck()
	if g.held || sent != 1 || g.deferred != 0 {
		t.Fatalf("spares ran low: held %v, sent %d, still deferred %d", g.held, sent, g.deferred)
	}
	spares = true
	g.recheck()
	g.fork()
	g.end(f)
	if g.held || sent != 2 {
		t.Fatalf("the execution ended: held %v, sent %d", g.held, sent)
	}
}

// Executions that follow each other within burstGap are one busy stretch:
// once it has held creation for maxHold, the gate stays open for the rest
// of it. An execution after an idle gap starts a new stretch, held again.
func TestGateBusyStretchHoldsOnceForMaxHold(t *testing.T) {
	spares, sent := true, 0
	g := policyGate(&spares, &sent)
	g.burstGap = time.Hour // every execution below follows the last within it
	first := g.begin()
	g.expire(g.stretch) // maxHold passed
	if g.held {
		t.Fatal("held past maxHold")
	}
	g.end(first)
	next := g.begin()
	if g.held {
		t.Fatal("an execution back to back with an expired stretch is held again")
	}
	g.end(next)
	g.mu.Lock()
	g.idle = time.Time{} // as if it had been idle for long
	g.mu.Unlock()
	later := g.begin()
	if !g.held {
		t.Fatal("an execution after an idle gap is not held")
	}
	g.end(later)
}

// processChild is a child for the gate alone: a real process (sleep) with
// a real pidfd and channel, whose other end the test reads the gate's
// frames from.
func processChild(t *testing.T) (c *child, peer int) {
	t.Helper()
	cmd, pidfd := startSleeper(t)
	channel, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC|syscall.SOCK_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	output := make([]int, 2)
	if err := syscall.Pipe2(output, syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	syscall.Close(output[1])
	c = newChild(uint32(cmd.Process.Pid), channel[0], pidfd, output[0])
	t.Cleanup(func() { c.close(); syscall.Close(channel[1]) })
	return c, channel[1]
}

// sentGo reports whether the gate sent c its go frame (read from its peer):
// true once, for the frame; false while none is there.
func sentGo(t *testing.T, peer int) bool {
	t.Helper()
	buf := make([]byte, 16)
	n, err := syscall.Read(peer, buf)
	if err == syscall.EAGAIN {
		return false
	}
	if err != nil || n != headerLen || buf[0] != kGo || buf[1]|buf[2]|buf[3]|buf[4] != 0 {
		t.Fatalf("read %q (%v), want one go frame", buf[:max(n, 0)], err)
	}
	return true
}

// The gate's hand on each child, on real processes: a child that arrives
// while it is open starts at once; one that arrives while it holds gets no
// go frame, and one already started is stopped; when it opens, the first
// gets its go and the second SIGCONT; one leaving while stopped resumes.
func TestGateStartsStopsAndResumesChildren(t *testing.T) {
	spares, sent := true, 0
	g := policyGate(&spares, &sent)
	early, earlyPeer := processChild(t)
	g.arrived(early)
	if !sentGo(t, earlyPeer) {
		t.Fatal("a child arriving with nothing running had no go frame")
	}
	earlyPID := early.hostPID()
	f := g.begin()
	waitUntil(t, "the started child stopped", func() bool { return processState(t, earlyPID) == "T" })
	late, latePeer := processChild(t)
	g.arrived(late)
	if sentGo(t, latePeer) {
		t.Fatal("a child arriving while an execution runs had its go frame")
	}
	if g.starting[early] != stopped || g.starting[late] != awaitingGo {
		t.Fatalf("while held: states %d and %d, want stopped and awaiting go", g.starting[early], g.starting[late])
	}
	g.end(f)
	waitUntil(t, "the stopped child resumed", func() bool { return processState(t, earlyPID) == "S" })
	if !sentGo(t, latePeer) {
		t.Fatal("the gate opened and the waiting child had no go frame")
	}
	if sentGo(t, earlyPeer) {
		t.Fatal("a resumed child had a second go frame")
	}
	f = g.begin()
	waitUntil(t, "the child stopped again", func() bool { return processState(t, earlyPID) == "T" })
	g.left(early) // ready or dead: it must not stay stopped
	waitUntil(t, "the child that left resumed", func() bool { return processState(t, earlyPID) == "S" })
	g.end(f)
	if _, ok := g.starting[early]; ok {
		t.Fatal("a child that left is still in the gate")
	}
}
