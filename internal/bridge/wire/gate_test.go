package wire

import (
	"context"
	"errors"
	"strconv"
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

// stoppedChild makes the zygote fork one child beyond what the pool asked
// for, bypassing the gate's deferral (a fork already under way when an
// execution starts), and returns it once the gate has stopped it on its
// arrival and the kernel holds it stopped. On a loaded machine a child may
// confine itself, warm up and send its ready frame before the host reads
// its arrival: the gate's SIGSTOP then lands on a ready child, which the
// host admits (and resumes) as soon as it reads that frame. Such a child
// is dropped, so the pool holds as many spares as before, and another is
// forked.
func stoppedChild(t *testing.T, p *Pool) *child {
	t.Helper()
	spares := p.counts().Spare
	for attempt := 0; attempt < 20; attempt++ {
		p.mu.Lock()
		p.starting++
		p.mu.Unlock()
		p.gate.mu.Lock()
		p.gate.inFlight++
		p.gate.markLocked() // what the zygote does now runs beside the execution
		p.gate.mu.Unlock()
		p.sendFork()
		c := arrivedChild(t, p)
		if c != nil && heldStopped(t, p, c) {
			return c
		}
		waitUntil(t, "the child that was ready to be admitted", func() bool {
			return p.counts().Starting == 0 && len(gateStarting(p)) == 0
		})
		dropExtraSpare(p, spares)
	}
	t.Fatal("20 children in a row were ready before the host saw them arrive")
	return nil
}

// arrivedChild waits for the forked child's arrival in the gate and returns
// it, or nil when it came and went (ready before the host read its
// arrival).
func arrivedChild(t *testing.T, p *Pool) *child {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Microsecond) {
		starting := gateStarting(p)
		for c, stopped := range starting {
			if !stopped {
				t.Fatal("a child arrived during an execution, and the gate did not stop it")
			}
			return c
		}
		p.gate.mu.Lock()
		inFlight := p.gate.inFlight
		p.gate.mu.Unlock()
		if inFlight == 0 && p.counts().Starting == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			t.Fatalf("no child started (pool: %s, forks in flight %d%s)", p.counts(), inFlight, p.diagnostics())
		}
	}
}

// heldStopped reports whether c is stopped by the kernel and still held
// starting by the gate a while after: a child whose ready frame was sent
// before the SIGSTOP landed leaves the gate once the host reads it.
func heldStopped(t *testing.T, p *Pool, c *child) bool {
	t.Helper()
	pid := c.hostPID()
	for deadline := time.Now().Add(30 * time.Second); processState(t, pid) != "T"; time.Sleep(time.Millisecond) {
		if _, starting := gateStarting(p)[c]; !starting {
			return false
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gate stopped child %d, and it is still %s", pid, processState(t, pid))
		}
	}
	time.Sleep(200 * time.Millisecond) // time for the host to read a ready frame already sent
	_, starting := gateStarting(p)[c]
	return starting && processState(t, pid) == "T"
}

// gateStarting is a copy of the gate's starting children (true: stopped).
func gateStarting(p *Pool) map[*child]bool {
	p.gate.mu.Lock()
	defer p.gate.mu.Unlock()
	starting := make(map[*child]bool, len(p.gate.starting))
	for c, stopped := range p.gate.starting {
		starting[c] = stopped
	}
	return starting
}

// dropExtraSpare discards the newest spare while the pool holds more than
// spares of them.
func dropExtraSpare(p *Pool, spares int) {
	p.mu.Lock()
	var extra *child
	if p.ready.len() > spares {
		extra = p.ready.pop()
	}
	p.mu.Unlock()
	if extra != nil {
		extra.discard()
	}
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

// A child whose fork was under way when an execution started is stopped as
// it arrives: it stays unready, stopped, until the execution ends, then
// confines itself, warms up and serves.
func TestGateStopsAChildStartingBesideAnExecution(t *testing.T) {
	p := gatedPool(t)
	release := take(t, p)
	pid := stoppedChild(t, p).hostPID()
	// The kernel stops it as it next handles its signals.
	waitUntil(t, "the child stopped", func() bool { return processState(t, pid) == "T" })
	if got := p.counts(); got.Starting != 1 {
		t.Fatalf("while it is stopped: %s, want one starting", got)
	}
	release()
	waitUntil(t, "the stopped child to become a spare", func() bool { c := p.counts(); return c.Spare == 2 && c.Starting == 0 })
	if state := processState(t, pid); state == "T" || state == "gone" {
		t.Fatalf("the resumed child is %s", state)
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

// A stopped starting child killed from outside is replaced, and the gate
// never waits on it.
func TestGateSurvivesAStoppedChildKilled(t *testing.T) {
	p := gatedPool(t)
	release := take(t, p)
	stoppedChild(t, p).kill()
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

// The zygote dying while the gate holds a stopped child wedges nothing: the
// execution's release returns, the next Acquire fails with ErrCrashed, and
// Close returns.
func TestGateSurvivesTheZygoteDying(t *testing.T) {
	p := gatedPool(t)
	release := take(t, p)
	pid := stoppedChild(t, p).hostPID()
	if err := syscall.Kill(p.zygotePID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.dead
	release()
	waitUntil(t, "the stopped child to die with the zygote", func() bool {
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
	g := newCreationGate(func() bool { return *spares }, func() { *sent++ })
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
