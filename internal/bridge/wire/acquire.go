package wire

import (
	"context"
	"fmt"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// Acquire takes a forked child that has confined itself and said it is
// ready (see admit). Its replacement is asked for at its Release, or at once
// when fewer than half the Prefork spares are left (capacity.go), and waits
// for the creation gate (gate.go). The child serves this session only; its
// Release frees the slot.
//
// Acquire waits only when no child is ready, which with Prefork spares means
// when MaxChildren are busy, and never past the session's context or
// deadline: a deadline gives an error matching ErrTimeout and
// context.DeadlineExceeded, a cancel one matching context.Canceled. A
// context already done takes no child.
func (p *Pool) Acquire(s *bridge.Session) (bridge.Guest, error) {
	ctx := s.Context()
	if ctx.Err() != nil {
		return nil, p.waitEnded(ctx)
	}
	var expired <-chan time.Time
	if deadline, ok := s.Deadline(); ok {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		expired = timer.C
	}
	waiting := false
	defer func() {
		if waiting {
			p.stopWaiting()
		}
	}()
	for {
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		if c := p.took(waiting); c != nil {
			waiting = false
			if c.exitedNow() {
				// Killed while it waited in the pool: never used, replaced.
				c.close()
				p.released()
				continue
			}
			return newGuest(p, c, s), nil
		}
		if err := p.unready.err(); err != nil {
			p.retryFork()
			p.ready.notify() // the next waiter learns it too
			return nil, fmt.Errorf("%w%s", err, p.diagnostics())
		}
		if !waiting {
			waiting = true
			p.wait()
			continue // a child may have become ready meanwhile
		}
		select {
		case <-p.ready.signal:
		case <-p.dead:
			p.mu.Lock()
			closed := p.closed
			p.mu.Unlock()
			if closed {
				return nil, ErrClosed
			}
			return nil, fmt.Errorf("%w: the sandbox zygote is gone (%v)%s", ErrCrashed, p.deadErr, p.diagnostics())
		case <-ctx.Done():
			return nil, p.waitEnded(ctx)
		case <-expired:
			return nil, p.waitExpired()
		}
	}
}

// waitEnded is the error of an Acquire whose context ended: a deadline is a
// timeout, anything else the caller's cancel.
func (p *Pool) waitEnded(ctx context.Context) error {
	if bridge.ReasonFor(ctx) == bridge.Timeout {
		return p.waitExpired()
	}
	return fmt.Errorf("cancelled while waiting for a sandboxed child: %w", context.Canceled)
}

func (p *Pool) waitExpired() error {
	return fmt.Errorf("%w: no sandboxed child became free before the deadline (at most %d children; %s): %w",
		ErrTimeout, p.opts.MaxChildren, p.counts(), context.DeadlineExceeded)
}
