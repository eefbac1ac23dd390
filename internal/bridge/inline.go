package bridge

import (
	"context"
	"sync/atomic"
)

// Tools inline: in process, a tool call runs on the thread of the program
// that makes it. Handing it to a goroutine of its own (runBounded) parks
// that thread, locked to its goroutine by cgo, and wakes it again: two
// thread switches per call, most of a short execution's cost. Inline, a
// tool that ignores its context holds the program's thread, so the
// transport runs the program on a goroutine of its own and its caller waits
// at most Grace past the context's end: it then abandons the calls still
// running inline (AbandonInline) and returns without the program, which
// meets its interrupt once the tool returns, into a session already over.

// inlineCall is a tool call running on the program's thread.
type inlineCall struct {
	state atomic.Int32 // inlineRunning, then inlineFinished or inlineLeft
	call  HookCall
	trace Call
}

const (
	inlineRunning int32 = iota
	inlineFinished
	inlineLeft // abandoned by AbandonInline: it reported the call
)

// RunToolsInline makes the session run every tool call on the thread that
// makes it (see above); the transport then must wait for the program with
// AbandonInline as its way out. Called before the execution starts.
func (s *Session) RunToolsInline() { s.inline = true }

// runTool runs fn (a tool call, traced as `trace`) inline or bounded, as the
// transport asked. reported: the call was abandoned and AbandonInline
// already traced it and told the hooks; the caller must not again.
func (s *Session) runTool(ctx context.Context, call HookCall, trace Call, fn func() ([]byte, string)) (response []byte, toolErr string, abandoned, reported bool) {
	if !s.inline {
		response, toolErr, abandoned = s.runBounded(ctx, fn)
		return response, toolErr, abandoned, false
	}
	c := &inlineCall{call: call, trace: trace}
	s.mu.Lock()
	if s.running == nil {
		s.running = map[*inlineCall]struct{}{}
	}
	s.running[c] = struct{}{}
	s.mu.Unlock()
	response, toolErr = fn()
	s.mu.Lock()
	delete(s.running, c)
	s.mu.Unlock()
	if !c.state.CompareAndSwap(inlineRunning, inlineFinished) {
		s.abandoned().Add(-1) // the tool returned at last
		return errorResponse(AbandonedError), AbandonedError, true, true
	}
	return response, toolErr, false, false
}

// AbandonInline gives up the tool calls running inline: each is traced and
// reported to the hooks as abandoned, and counted by Config.Abandoned until
// its tool returns. False: none was running (the program is elsewhere, such
// as a long C call, and the transport waits for it as before).
func (s *Session) AbandonInline() bool {
	s.mu.Lock()
	left := make([]*inlineCall, 0, len(s.running))
	for c := range s.running {
		if c.state.CompareAndSwap(inlineRunning, inlineLeft) {
			s.abandoned().Add(1)
			left = append(left, c)
		}
	}
	end := s.Since()
	for _, c := range left {
		c.trace.End, c.trace.Error = end, AbandonedError
		s.calls = append(s.calls, c.trace)
	}
	s.mu.Unlock()
	for _, c := range left {
		s.after(c.call, c.trace, errorResponse(AbandonedError), false)
	}
	if len(left) > 0 {
		// The program runs on after Execute has returned, until its tool
		// does: none of its output may reach the caller's writers then.
		s.outputMu.Lock()
		s.stdout.broken, s.stderr.broken = true, true
		s.outputMu.Unlock()
	}
	return len(left) > 0
}
