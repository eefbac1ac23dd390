package wire

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"
)

// Admission: a forked child enters the ready stack only once it has said it
// is ready (confined and warmed up), so neither its confinement nor the read
// of its ready frame is ever on an execution's path. A child that dies
// before it is ready was never used; it is replaced, and several such deaths
// in a row mean the sandbox cannot confine children here: Acquire then fails
// with what the last one said, instead of waiting for a child that never
// comes.

// readyTimeout bounds how long a fresh child may take to confine itself and
// warm up (normally about a millisecond; far more under heavy load).
const readyTimeout = 30 * time.Second

// maxUnreadyChildren children dying before they are ready, one after the
// other, make Acquire fail: a child that cannot confine itself fails every time.
const maxUnreadyChildren = 3

// unready counts children that died before they were ready, since the last
// one that made it, and keeps the last one's reason.
type unready struct {
	mu    sync.Mutex
	count int
	last  string
}

func (u *unready) failed(why string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.count++
	u.last = why
	return u.count
}

func (u *unready) succeeded() {
	u.mu.Lock()
	u.count = 0
	u.mu.Unlock()
}

// err is non-nil while children keep dying before they are ready.
func (u *unready) err() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.count < maxUnreadyChildren {
		return nil
	}
	return fmt.Errorf("%w: %d sandboxed children in a row died before they were ready (%s)", ErrCrashed, u.count, u.last)
}

// admit waits, off every execution's path, for a new child's ready frame.
func (p *Pool) admit(c *child) {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	err := c.awaitReady(ctx)
	p.gate.left(c) // never a stopped child in the pool
	if err == nil {
		p.unready.succeeded()
		if !p.admitted(c) { // closed, or a spare nobody waits for any more
			c.discard()
		}
		p.gate.recheck() // one more spare: creation may wait again
		return
	}
	p.startFailed()
	why := c.discard()
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return
	}
	// Only a child that exited on its own (a confinement step failed: it
	// says which and exits 1) counts against the sandbox; one killed from
	// outside while it started is simply replaced.
	status := c.wait(time.Second)
	if status >= 0 && syscall.WaitStatus(status).Signaled() {
		p.replenish()
		return
	}
	if why == "" {
		why = err.Error()
	}
	p.opts.Logger.Warn("spine: a sandboxed child died before it was ready", "reason", why)
	p.unready.failed(why)
	p.replenish()    // stops asking once the failures are final
	p.ready.notify() // a waiting Acquire reports the failure if it is final
}
