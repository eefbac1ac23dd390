package bridge

import (
	"fmt"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// Accept checks a guest's result before the host believes any of it, in
// one place for every transport: the response and captured output against
// the execution's result limits (protocol.CheckResponse: size, depth, UTF-8
// JSON, an outcome a guest may claim), and the interrupt it reports against
// what the host asked for itself. A transport calls it on every result it
// returns; the host reads a result only through Envelope, which only Accept
// sets. The error wraps protocol.ErrBreach; the transport reports it as
// ErrViolation.
//
// In process the guest is no boundary and its result cannot be forged from
// outside; the same check runs there, and a refusal (a defect, or a program
// that reached into the interpreter) ends the execution with the same
// status as in the sandbox.
func (s *Session) Accept(r *Result) error {
	envelope, err := protocol.CheckResponse(r.Response, r.Stdout, r.Stderr, s.cfg.Result)
	if err != nil {
		return err
	}
	if !s.sent(r.Interrupted) {
		return fmt.Errorf("%w: the result reports the interrupt %q, which the host never sent", protocol.ErrBreach, r.Interrupted)
	}
	r.envelope = envelope
	return nil
}

// sent reports whether the host could have interrupted the program for
// reason: a limit it recorded, a context that ended, a deadline that passed
// (the guest's own timer fires no earlier than the host's deadline).
func (s *Session) sent(reason Reason) bool {
	switch reason {
	case NotInterrupted:
		return true
	case LimitExceeded: // a limit, or the recorder's halt (journal.go)
		return s.LimitExceeded() != "" || s.cfg.Recorder.Halted() != Running
	case Cancelled:
		return s.ctx.Err() != nil
	case Timeout:
		if s.ctx.Err() != nil {
			return true
		}
		deadline, ok := s.Deadline()
		return ok && !time.Now().Before(deadline)
	}
	return false
}

// ResultLimits are the limits the execution's result is checked against.
func (s *Session) ResultLimits() protocol.ResultLimits { return s.cfg.Result.WithDefaults() }
