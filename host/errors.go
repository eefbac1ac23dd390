package host

import (
	"context"
	"errors"
)

// Kinds of failure, for errors.Is.
var (
	// ErrTimeout: the execution passed its deadline and was stopped. Errors of
	// this kind also match context.DeadlineExceeded.
	ErrTimeout = errors.New("spine: execution timed out")
	// ErrLimit: the program exceeded a limit (tool calls, result size or depth).
	ErrLimit = errors.New("spine: limit exceeded")
	// ErrGuest: the program raised an exception; Response.Error has it.
	ErrGuest = errors.New("spine: the program failed")
	// ErrBadRequest: the request itself is invalid (inputs that are not JSON,
	// an unknown tool name in Request.Tools, ...). Nothing ran.
	ErrBadRequest = errors.New("spine: bad request")
	// ErrSandbox: the guest failed (out of memory, output limit, crash,
	// policy or protocol violation); Response.Status says which. In process
	// only a crash (the guest could not run the request) or a violation (a
	// result the host refused) can happen.
	ErrSandbox = errors.New("spine: the sandboxed guest failed")
	// ErrClosed: the engine was closed.
	ErrClosed = errors.New("spine: engine is closed")
)

// ExecError is the error of a failed execution: its Kind is one of the Err
// values above (or context.Canceled), and Message says what happened.
type ExecError struct {
	Kind    error
	Message string
	Line    int // the program's line, when the program raised
	// ToolErr is the Go error a tool returned when the exception it raised
	// in the program was not caught (see ToolError); errors.As reaches it.
	ToolErr error
}

func (e *ExecError) Error() string {
	if e.Message == "" {
		return e.Kind.Error()
	}
	return e.Kind.Error() + ": " + e.Message
}

// Unwrap lets errors.Is match the kind (and, for a timeout,
// context.DeadlineExceeded), and errors.Is and errors.As the tool's own
// error that the program did not catch.
func (e *ExecError) Unwrap() []error {
	errs := []error{e.Kind}
	if e.Kind == ErrTimeout {
		errs = append(errs, context.DeadlineExceeded)
	}
	if e.ToolErr != nil {
		errs = append(errs, e.ToolErr)
	}
	return errs
}

// contextDone is the error of an execution whose context was done before it
// started: a timeout for a deadline, context.Canceled for a cancel.
func contextDone(err error) *ExecError {
	if errors.Is(err, context.DeadlineExceeded) {
		return &ExecError{Kind: ErrTimeout, Message: "the context's deadline passed before the execution started"}
	}
	return &ExecError{Kind: context.Canceled, Message: "the context was cancelled before the execution started"}
}
