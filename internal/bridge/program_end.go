package bridge

import (
	"context"
	"errors"
)

// errProgramEnded is the cause with which EndProgram ends the session's
// context: the program is over, not stopped, so nothing about it reads as a
// cancel.
var errProgramEnded = errors.New("the program ended")

// EndProgram cancels what the program's threads still wait for once the
// program has ended (its result came, or its guest failed): a thread still
// running then dies with the program, and its crossing in flight (a tool
// call, a wait, a resolve) ends now, its tool told through its context and
// given Grace like any other, rather than running on past the execution.
// The outcome stays what the program's result says: Ended ignores this
// cancel.
func (s *Session) EndProgram() {
	s.cancelCause(errProgramEnded)
}

// programEnded reports whether the session's context ended by EndProgram.
func (s *Session) programEnded() bool {
	return errors.Is(context.Cause(s.ctx), errProgramEnded)
}
