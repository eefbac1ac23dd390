package bridge

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Grace is how long a tool may take to return once its context has ended.
// Past it the session stops waiting: the call is abandoned (reported in the
// trace with AbandonedError) and the execution goes on to its end, so a tool
// that ignores its context can never hold an execution past its deadline
// plus Grace. Go cannot stop a goroutine: the abandoned one runs on until the
// tool returns, counted by Config.Abandoned; an early call's worker slot
// (Config.Workers) stays taken until then, because the tool really is still
// running — but a program never waits for a slot (see Session.Resolve), so a
// full pool of stuck tools costs later executions their head start, never
// their calls.
const Grace = 500 * time.Millisecond

// AbandonedError is the trace's error of a call abandoned after Grace.
var AbandonedError = fmt.Sprintf("abandoned: the tool ignored its context for %v after it ended", Grace)

// endedAt is when the session's context ended (zero while it has not).
func (s *Session) endedAt() time.Time {
	if ns := s.ended.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// waitBounded waits for done; once ctx has ended it waits at most until
// Grace after `since()` (the moment the context ended, or zero for now).
// It reports whether done closed.
func waitBounded(ctx context.Context, done <-chan struct{}, since func() time.Time) bool {
	select {
	case <-done:
		return true
	case <-ctx.Done():
	}
	from := since()
	if from.IsZero() {
		from = time.Now()
	}
	timer := time.NewTimer(time.Until(from.Add(Grace)))
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

// runBounded runs fn (a tool call) on its own goroutine and waits for it at
// most Grace past the end of ctx; abandoned reports that it gave up.
func (s *Session) runBounded(ctx context.Context, fn func() ([]byte, string)) (response []byte, toolErr string, abandoned bool) {
	var got struct {
		response []byte
		toolErr  string
	}
	if !s.bounded(ctx, func() { got.response, got.toolErr = fn() }) {
		return errorResponse(AbandonedError), AbandonedError, true
	}
	return got.response, got.toolErr, false
}

// bounded runs fn on its own goroutine and waits for it at most Grace past
// the end of ctx. False: it gave up, and fn runs on, counted as abandoned
// until it returns; the caller must not read what fn writes.
func (s *Session) bounded(ctx context.Context, fn func()) bool {
	done := make(chan struct{})
	var state atomic.Int32 // running, then finished or left
	const running, finished, left = 0, 1, 2
	go func() {
		fn()
		close(done)
		if !state.CompareAndSwap(running, finished) {
			s.abandoned().Add(-1)
		}
	}()
	if !waitBounded(ctx, done, s.endedAt) {
		s.abandoned().Add(1)
		if state.CompareAndSwap(running, left) {
			return false
		}
		s.abandoned().Add(-1) // it returned just now
		<-done
	}
	return true
}

// abandoned is the counter of abandoned calls still running.
func (s *Session) abandoned() *atomic.Int64 {
	if s.cfg.Abandoned != nil {
		return s.cfg.Abandoned
	}
	return &s.ownAbandoned
}
