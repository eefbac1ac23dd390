package wire

import (
	"sync"
	"syscall"
	"time"
)

// The creation gate: making a spare child (the zygote's fork, the child's
// confinement and warm-up: a few milliseconds of CPU) yields to the
// executions that run, while the pool has enough spares ready.
//
// On two cores, a child warming up beside an execution shares the machine
// with it: every one of the slowest 1% of paced executions began while a
// replacement was starting, and pinning the warming children to one CPU or
// running them SCHED_BATCH left most of that tail (bench/RESULTS.md). A
// lower scheduling class helps, and where the host may take a task back out
// of SCHED_IDLE the gate runs creation there too (priority.go); but an
// unprivileged process cannot (RLIMIT_NICE is 0), and a child must run its
// execution at full priority. So the host, which knows when executions
// run, holds creation back itself:
//
//   - a new child does nothing until the host sends it the go frame
//     (guest-c/sandbox/main.c, await_go): one arriving while the gate holds
//     (its fork was under way when an execution began) waits, costing that
//     execution nothing but the fork;
//   - while an execution runs, no fork request goes to the zygote (it is
//     sent when the gate opens), and every child already started and not
//     yet ready is stopped with SIGSTOP through its pidfd;
//   - the gate opens, every waiting child gets its go frame and every
//     stopped child SIGCONT, when no execution runs, when fewer than
//     lowWater spares are ready (creation is then what executions need,
//     an Acquire may wait for it: it proceeds at full speed beside them,
//     so sustained load never drains the pool), and after maxHold of one
//     busy stretch (executions that overlap or follow each other within
//     burstGap keep the gate open past it: back to back, creation has no
//     other time to run; a long execution gains little from the hold, and
//     a child must not stay stopped for long);
//   - a child can be ready only once it has had its go frame, and leaves
//     the gate's hold (SIGCONT) before it is admitted to the pool, so no
//     execution is ever handed a stopped child.
//
// Isolation is untouched: a waiting or stopped child goes on where it was,
// runs every confinement step in order, fails closed as before and is
// admitted only on its ready frame. Stopping is a delay, and SIGKILL
// (release, Close, the zygote's end) ends a stopped child like any other.
type creationGate struct {
	mu sync.Mutex
	// enough reports whether the pool has enough spares ready for creation
	// to wait (it takes the pool's lock: the gate's lock comes first).
	enough func() bool
	// background reports whether creation may run at idle priority: no
	// Acquire waits (it takes the pool's lock too).
	background func() bool
	// prio moves creation between SCHED_IDLE and SCHED_OTHER (priority.go);
	// nil where the host may not. Set before the pool's first fork.
	prio     *creationPriority
	sendFork func() // one fork request to the zygote
	maxHold  time.Duration
	burstGap time.Duration

	running int       // executions in progress
	idle    time.Time // when running last fell to 0
	stretch uint64    // counts busy stretches (see begin)
	expired bool      // this stretch held creation for maxHold: open until it ends
	timer   *time.Timer
	held    bool

	starting map[*child]startState // children arrived, not yet ready or dead
	inFlight int                   // fork requests sent to the zygote, their child not yet arrived
	deferred int                   // fork requests held back while the gate holds

	live      map[*foreground]struct{}
	ended     uint64 // executions that ended
	besideRun uint64 // of them, those during which creation ran
}

// startState is where a child the gate knows stands in its creation.
type startState uint8

const (
	awaitingGo startState = iota // arrived while the gate held: no go frame sent yet
	creating                     // sent its go frame, running
	stopped                      // sent its go frame, stopped by the gate
)

// foreground is one execution, for the gate: from Acquire to Release (or
// one exchange of a session's child).
type foreground struct{ beside bool }

// maxHold bounds how long one busy stretch holds creation back: several
// times a paced execution on a quiet machine (about 1.6 ms).
const maxHold = 20 * time.Millisecond

// burstGap: executions that follow each other with less idle time between
// them are one busy stretch. Back to back, the gap is the caller's own work
// between two executions (tens of microseconds); creation, held during
// each, would have no time left to run but those gaps.
const burstGap = time.Millisecond

func newCreationGate(enough, background func() bool, sendFork func()) *creationGate {
	return &creationGate{enough: enough, background: background, sendFork: sendFork, maxHold: maxHold, burstGap: burstGap,
		starting: map[*child]startState{}, live: map[*foreground]struct{}{}}
}

// begin counts an execution in; end counts it out. An execution that
// begins after burstGap or more with none running starts a busy stretch,
// which may hold creation back for maxHold.
func (g *creationGate) begin() *foreground {
	f := &foreground{}
	g.mu.Lock()
	g.live[f] = struct{}{}
	g.running++
	if g.running == 1 && time.Since(g.idle) >= g.burstGap {
		g.stretch++
		g.expired = false
		if g.timer != nil {
			g.timer.Stop()
			g.timer = nil
		}
	}
	forks := g.applyLocked()
	g.mu.Unlock()
	forks()
	return f
}

func (g *creationGate) end(f *foreground) {
	g.mu.Lock()
	if _, ok := g.live[f]; !ok {
		g.mu.Unlock()
		return
	}
	delete(g.live, f)
	g.running--
	if g.running == 0 {
		g.idle = time.Now()
	}
	g.ended++
	if f.beside {
		g.besideRun++
	}
	forks := g.applyLocked()
	g.mu.Unlock()
	forks()
}

// recheck re-evaluates the hold after the pool's spares or waiters changed.
func (g *creationGate) recheck() {
	g.mu.Lock()
	forks := g.applyLocked()
	g.mu.Unlock()
	forks()
}

// fork reports whether a fork request may go to the zygote now; if not, it
// is held back and sent when the gate opens.
func (g *creationGate) fork() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held {
		g.deferred++
		return false
	}
	g.inFlight++
	g.markLocked()
	return true
}

// forkFailed: the zygote reported a fork it could not make.
func (g *creationGate) forkFailed() {
	g.mu.Lock()
	g.inFlight = max(0, g.inFlight-1)
	g.mu.Unlock()
}

// arrived takes a new child into the gate: it starts at once, or waits
// for its go frame while the gate holds.
func (g *creationGate) arrived(c *child) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight = max(0, g.inFlight-1)
	g.prio.arrived(c)
	if g.held {
		g.starting[c] = awaitingGo
	} else {
		c.letStart()
		g.starting[c] = creating
	}
	g.markLocked()
}

// left takes a child out of the gate (ready, or dead): it runs on.
func (g *creationGate) left(c *child) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.starting[c] == stopped {
		c.signal(syscall.SIGCONT)
	}
	delete(g.starting, c)
}

// zygoteGone forgets the forks that will never arrive, and opens.
func (g *creationGate) zygoteGone() {
	g.mu.Lock()
	g.inFlight, g.deferred = 0, 0
	g.prio.forget()
	g.mu.Unlock()
}

// closing forgets the zygote's pid before the pool reaps it.
func (g *creationGate) closing() {
	g.mu.Lock()
	g.prio.forget()
	g.mu.Unlock()
}

// counts reports how many executions ended and how many of them ran while
// a child was being created beside them.
func (g *creationGate) counts() (ended, beside uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.ended, g.besideRun
}

// applyLocked holds or opens the gate as the state asks; it returns the
// sending of the forks held back, to run once g.mu is released (a send may
// wait for the zygote).
func (g *creationGate) applyLocked() (sendForks func()) {
	hold := g.running > 0 && !g.expired && g.enough()
	sendForks = func() {}
	switch {
	case hold && !g.held:
		g.held = true
		for c, state := range g.starting {
			if state == creating {
				c.signal(syscall.SIGSTOP)
				g.starting[c] = stopped
			}
		}
		if g.timer == nil { // the first hold of this stretch
			stretch := g.stretch
			g.timer = time.AfterFunc(g.maxHold, func() { g.expire(stretch) })
		}
	case !hold && g.held:
		g.held = false
		for c, state := range g.starting {
			switch state {
			case awaitingGo:
				c.letStart()
			case stopped:
				c.signal(syscall.SIGCONT)
			}
			g.starting[c] = creating
		}
		if n := g.deferred; n > 0 {
			g.deferred = 0
			g.inFlight += n
			sendForks = func() {
				for i := 0; i < n; i++ {
					g.sendFork()
				}
			}
		}
	}
	// A busy stretch past maxHold is sustained load (back to back, a
	// burst): there creation is what executions wait for, in the
	// foreground like the gate's.
	g.prio.follow(!g.expired && g.background(), g.starting)
	g.markLocked()
	return sendForks
}

// expire opens the gate when one busy stretch has held creation for
// maxHold (it may fire between two executions of the stretch).
func (g *creationGate) expire(stretch uint64) {
	g.mu.Lock()
	if g.stretch == stretch {
		g.expired = true
	}
	forks := g.applyLocked()
	g.mu.Unlock()
	forks()
}

// markLocked records, in every execution now running, that a child is
// being created beside it: a fork under way in the zygote, or a child
// started and not held.
func (g *creationGate) markLocked() {
	if len(g.live) == 0 || !g.creatingLocked() {
		return
	}
	for f := range g.live {
		f.beside = true
	}
}

func (g *creationGate) creatingLocked() bool {
	if g.inFlight > 0 {
		return true
	}
	for _, state := range g.starting {
		if state == creating {
			return true
		}
	}
	return false
}
