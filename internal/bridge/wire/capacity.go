package wire

import "fmt"

// Capacity: how many children the pool keeps, and when it forks.
//
// A child is starting from the fork request until it is ready (or dies
// first), spare while it waits in the ready stack, and busy from Acquire to
// Release. The pool keeps Prefork children spare or starting beyond the busy
// ones, plus one for every Acquire that waits, and never more than
// MaxChildren in all. A released child is replaced then; taking a child asks
// for its replacement at once only when fewer than half the Prefork spares
// are left (ready or starting), so demand grows the pool up to MaxChildren
// instead of queueing behind Prefork, while a lone execution does not share
// the machine with the fork and warm-up of its replacement (a few
// milliseconds of CPU: on two cores, the tail of paced executions). Acquire
// waits only when MaxChildren are busy (or starting for it).
//
// The counts live under p.mu. A child the kernel has already reaped may
// still be counted spare until Acquire pops it: it is replaced then. A
// released child's slot is free once SIGKILL is sent; the kernel takes a few
// hundred microseconds more to tear it down, during which its replacement
// may already be forking.

// replenish asks the zygote for the children the pool lacks.
func (p *Pool) replenish() { p.replenishTo(p.opts.Prefork) }

// refillTo is replenishTo for a child taken, released or waited for: a pool
// that serves one execution (NoRefill) asks then only for the forks waiting
// Acquires need, not for spares nothing would take.
func (p *Pool) refillTo(spares int) {
	if p.opts.NoRefill {
		spares = 0
	}
	p.replenishTo(spares)
}

// lowWater is how few spares (ready or starting) make taking a child ask
// for its replacement at once.
func (p *Pool) lowWater() int { return (p.opts.Prefork + 1) / 2 }

// replenishTo asks for the forks that bring the spares (ready or starting)
// to the given number, plus one for every waiting Acquire.
func (p *Pool) replenishTo(spares int) {
	p.mu.Lock()
	n := p.forksWantedLocked(spares)
	p.starting += n
	grown := p.grownLocked()
	p.mu.Unlock()
	if grown > 0 {
		p.opts.Logger.Info("spine: the sandbox pool grew", "children", grown, "max_children", p.opts.MaxChildren)
	}
	for i := 0; i < n; i++ {
		p.requestFork()
	}
}

func (p *Pool) forksWantedLocked(spares int) int {
	if p.closed || p.unready.err() != nil {
		return 0
	}
	spare := p.ready.len() + p.starting
	wanted := spares + p.waiting - spare
	room := p.opts.MaxChildren - p.busy - spare
	return max(0, min(wanted, room))
}

// retryFork asks for one child even though the last ones died before they
// were ready, should the cause have passed (within MaxChildren).
func (p *Pool) retryFork() {
	p.mu.Lock()
	fork := !p.closed && p.busy+p.ready.len()+p.starting < p.opts.MaxChildren
	if fork {
		p.starting++
	}
	p.mu.Unlock()
	if fork {
		p.requestFork()
	}
}

// requestFork asks the zygote for a child, now or when the creation gate
// opens (gate.go).
func (p *Pool) requestFork() {
	if p.gate.fork() {
		p.sendFork()
	}
}

func (p *Pool) sendFork() {
	select {
	case <-p.dead:
		p.gate.forkFailed()
	default:
		if p.send(frame(kFork)) != nil {
			p.gate.forkFailed()
		}
	}
}

// enoughSpares: enough spares are ready for the creation of more to wait
// for the executions that run (gate.go). An Acquire waits only when none is.
func (p *Pool) enoughSpares() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closed && p.ready.len() >= p.lowWater()
}

// backgroundCreation: no Acquire waits for a child, so creating more may
// run at idle priority (priority.go).
func (p *Pool) backgroundCreation() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closed && p.waiting == 0
}

// took takes the newest ready child for a session (nil if none), counting
// it busy. A caller that was waiting stops being counted as waiting.
func (p *Pool) took(wasWaiting bool) *child {
	p.mu.Lock()
	c := p.ready.pop()
	if c != nil {
		p.busy++
		if wasWaiting {
			p.waiting--
		}
	}
	p.mu.Unlock()
	if c != nil {
		p.gate.recheck()         // fewer spares: creation may have to proceed
		p.refillTo(p.lowWater()) // its replacement now if spares run low; else at its release
	}
	return c
}

// wait and stopWaiting count an Acquire that found no ready child. A pool
// that serves one execution (NoRefill) forks for it only beyond the children
// already starting: its first execution usually comes before its first child
// is ready, and would otherwise have a second one forked that nothing takes.
func (p *Pool) wait() {
	p.mu.Lock()
	p.waiting++
	p.mu.Unlock()
	p.gate.recheck() // a waiter: creation runs in the foreground
	p.refillTo(p.opts.Prefork)
}

func (p *Pool) stopWaiting() {
	p.mu.Lock()
	p.waiting--
	p.mu.Unlock()
	p.gate.recheck()
}

// released frees the slot of a busy child once it has been killed.
func (p *Pool) released() {
	p.mu.Lock()
	p.busy--
	p.mu.Unlock()
	p.refillTo(p.opts.Prefork)
}

// admitted reports a started child that is ready: it becomes spare if the pool
// still wants it (false: the caller discards it, a waiter having gone).
func (p *Pool) admitted(c *child) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starting--
	if p.closed || p.ready.len() >= p.opts.Prefork+p.waiting {
		return false
	}
	return p.ready.push(c)
}

// startFailed reports a started child that died before it was ready, or a
// fork the zygote could not make.
func (p *Pool) startFailed() {
	p.mu.Lock()
	p.starting = max(0, p.starting-1)
	p.mu.Unlock()
}

// forkFailed: the zygote could not fork (say, out of memory or processes).
// It counts like a child that died before it was ready: several in a row
// make Acquire fail instead of waiting for a child that never comes. It runs
// on the control channel's reader, which must never block on a write to
// the zygote (the zygote may be blocked writing to it): the new fork
// requests go from another goroutine.
func (p *Pool) forkFailed(why string) {
	p.gate.forkFailed()
	p.startFailed()
	p.unready.failed("the zygote could not fork: " + why)
	go p.replenish()
	p.ready.notify()
}

// counts is a snapshot of the pool's children by state.
type counts struct {
	Busy, Spare, Starting, Waiting int
}

func (p *Pool) counts() counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return counts{Busy: p.busy, Spare: p.ready.len(), Starting: p.starting, Waiting: p.waiting}
}

// Children reports the pool's children by state, and the executions waiting
// for one (for the engine's metrics).
func (p *Pool) Children() (busy, spare, starting, waiting int) {
	c := p.counts()
	return c.Busy, c.Spare, c.Starting, c.Waiting
}

func (c counts) String() string {
	return fmt.Sprintf("busy %d, spare %d, starting %d, waiting %d", c.Busy, c.Spare, c.Starting, c.Waiting)
}

// Beside reports how many executions ended, and of them how many ran while
// a child was being created beside them (forked, confined or warmed up
// without the creation gate holding it back; gate.go).
func (p *Pool) Beside() (ended, beside uint64) { return p.gate.counts() }
