package native

// quota is one execution's share of the engine's compile queue. At most
// Options.PerExecution of its units are handed to the compiler at once; the
// others wait here, in the execution, and are handed over as earlier ones
// finish. So an execution with many eligible functions (MaxUnits) never fills
// the queue that the next execution's compilations need, and what it queued
// goes away with it: when the execution ends, each compilation it still
// waits for loses a waiter, and one nobody else waits for is cancelled.
type quota struct {
	active  int     // units handed to the compiler whose outcome is not taken yet
	backlog []*unit // units waiting for the execution's share, in order
	closed  bool    // the execution ended
}

// cancelledByEnd is the record of a unit whose execution ended first.
var cancelledByEnd = Failure{Kind: "cancelled", Message: "the execution ended before its compilation did"}

// submit asks for u to be compiled (s.mu held).
func (s *Session) submit(u *unit) {
	if s.closed {
		f := cancelledByEnd
		u.finish(Outcome{Failure: &f}, "")
		return
	}
	u.Status, u.Cache = StatusPending, "miss"
	s.compiles++
	s.backlog = append(s.backlog, u)
	s.pump()
}

// pump hands queued units to the compiler while the execution's share allows.
func (s *Session) pump() {
	for !s.closed && len(s.backlog) > 0 && s.active < s.c.opts.PerExecution {
		u := s.backlog[0]
		s.backlog = s.backlog[1:]
		u.job = s.c.compile(u.key, u.Name, u.source)
		s.active++
	}
}

// settle takes the outcomes of finished compilations, then hands over queued
// units in their place (s.mu held).
func (s *Session) settle() {
	for _, name := range s.order {
		s.refresh(s.units[name])
	}
	s.pump()
}

// firstRunning is the job of the first unit handed to the compiler and not
// finished, or nil when there is none (s.mu held).
func (s *Session) firstRunning() *job {
	for _, name := range s.order {
		if u := s.units[name]; u.Status == StatusPending && u.job != nil {
			return u.job
		}
	}
	return nil
}

// Close ends the execution's interest in its compilations: it stops waiting
// for each (the compiler cancels one when its last waiter leaves), drops the
// units still queued here, and records them as cancelled. Later requests are
// answered without compiling. The session calls it itself when the
// execution's context ends; calling it again does nothing.
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.backlog = nil
	var left []*job
	for _, name := range s.order {
		u := s.units[name]
		if u.Status != StatusPending || s.refresh(u) {
			continue
		}
		if u.job != nil {
			left = append(left, u.job)
			s.active--
		}
		f := cancelledByEnd
		u.finish(Outcome{Failure: &f}, u.Cache)
	}
	s.c.leave(left...)
}
