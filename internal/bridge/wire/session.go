package wire

import (
	"errors"
	"fmt"
	"sync"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// SessionChild is a child dedicated to one session: it serves the
// session's executions one after another, each bound to its own
// bridge.Session (its tools, limits, trace), and keeps the program's
// namespace between them. It is killed when the session closes, and when
// an execution fails in a way that ends a child (a kill at the deadline,
// a crash, a breach): the session then stays gone.
type SessionChild struct {
	owner *sandboxGuest // holds the child, drains its fds 1 and 2, releases it

	mu   sync.Mutex // one execution at a time
	gone error
}

// AcquireSession takes a ready child for a session and turns it into a
// session's child. s bounds the wait (its context and deadline) and serves
// nothing else.
func (p *Pool) AcquireSession(s *bridge.Session) (*SessionChild, error) {
	g, err := p.Acquire(s)
	if err != nil {
		return nil, err
	}
	owner := g.(*sandboxGuest)
	if err := owner.Entry(protocol.EntrySessionBegin, nil); err != nil {
		owner.Release()
		return nil, err
	}
	owner.unwatch()    // its executions are watched one by one
	owner.notRunning() // and run one by one: between them nothing runs
	return &SessionChild{owner: owner}, nil
}

// PID is the child's process id as this process sees it (hostPID).
func (sc *SessionChild) PID() int { return sc.owner.c.hostPID() }

// Execute runs one execution of the session in its child.
func (sc *SessionChild) Execute(s *bridge.Session, request []byte) (*bridge.Result, error) {
	return sc.serve(s, func(g *sandboxGuest) (*bridge.Result, error) { return g.Execute(request) })
}

// serve runs one exchange with the child (an execution, an entry) for s.
func (sc *SessionChild) serve(s *bridge.Session, exchange func(*sandboxGuest) (*bridge.Result, error)) (*bridge.Result, error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.gone != nil {
		return nil, sc.gone
	}
	if sc.owner.c.exitedNow() {
		sc.end(fmt.Errorf("%w: it exited between executions", bridge.ErrSessionGone))
		return nil, sc.gone
	}
	g := &sandboxGuest{p: sc.owner.p, c: sc.owner.c, s: s, r: sc.owner.r, rawDone: sc.owner.rawDone}
	g.raw.max = 4096
	g.running.Store(g.p.gate.begin())
	g.watch()
	result, err := exchange(g)
	g.unwatch()
	g.notRunning()
	if why := g.killed.Load(); err != nil || why != killNone || sc.owner.killed.Load() != killNone {
		// Whatever ended the execution this way ended the child too.
		cause := err
		if cause == nil {
			cause = errors.New("killed")
		}
		sc.end(fmt.Errorf("%w: %v", bridge.ErrSessionGone, cause))
	}
	return result, err
}

// Entry runs a bootstrap entry point of a stream in the session's child.
func (sc *SessionChild) Entry(s *bridge.Session, name string, arg []byte) error {
	_, err := sc.serve(s, func(g *sandboxGuest) (*bridge.Result, error) { return nil, g.Entry(name, arg) })
	return err
}

// Alive says whether the child still serves the session.
func (sc *SessionChild) Alive() error {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.gone == nil && sc.owner.c.exitedNow() {
		sc.end(fmt.Errorf("%w: it exited", bridge.ErrSessionGone))
	}
	return sc.gone
}

// Close kills the child and frees its slot; later executions get why. An
// execution running is stopped: the kill comes before the lock it holds.
func (sc *SessionChild) Close(why error) {
	sc.owner.killFor(killRelease)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.gone == nil {
		sc.end(fmt.Errorf("%w: %w", bridge.ErrSessionGone, why))
	}
}

// end records why the session is gone and releases its child (under mu).
func (sc *SessionChild) end(why error) {
	if sc.gone != nil {
		return
	}
	sc.gone = why
	sc.owner.Release()
}

// unwatch stops watching the session's context and its deadline timer.
func (g *sandboxGuest) unwatch() {
	g.timerMu.Lock()
	g.released = true // a deadline that fires now starts no timer
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	g.timerMu.Unlock()
	g.stopCtx()
}
