package host

import (
	"fmt"
	"strings"
)

// Exception names the Python exception a tool's error raises in the program.
type Exception string

// The exceptions a tool may raise; any other error raises RuntimeError.
const (
	RuntimeError    Exception = "RuntimeError"
	ValueError      Exception = "ValueError"
	KeyError        Exception = "KeyError"
	PermissionError Exception = "PermissionError"
	TimeoutError    Exception = "TimeoutError"
	LookupError     Exception = "LookupError"
)

// ToolError is a tool's error that names the exception the program sees:
//
//	return nil, &host.ToolError{Type: host.KeyError, Message: "no user 42", Err: err}
//	return nil, host.Raise(host.ValueError, "bad date %q: %w", s, err)
//
// The program can catch it (`except KeyError as e`, or any base class:
// LookupError catches KeyError); str(e) is Message. When the program does
// not catch it, the execution's *ExecError unwraps to the tool's error, so
// errors.As and errors.Is reach the ToolError and, through Err, its cause.
// A Type outside the constants above raises RuntimeError. Any other error a
// handler returns raises RuntimeError(err.Error()) and is reached the same way.
type ToolError struct {
	Type    Exception
	Message string // "" : Err's text
	Err     error  // the cause, for errors.Is / errors.As (may be nil)
}

func (e *ToolError) Error() string {
	if e.Message == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap is the cause.
func (e *ToolError) Unwrap() error { return e.Err }

// PythonException is the exception's name (the bridge reads it).
func (e *ToolError) PythonException() string { return string(e.Type) }

// Raise makes a ToolError of type kind whose message is formatted as by
// fmt.Errorf; a %w verb makes its operand the cause.
func Raise(kind Exception, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &ToolError{Type: kind, Message: err.Error(), Err: unwrapOnce(err)}
}

func unwrapOnce(err error) error {
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return u.Unwrap()
	case interface{ Unwrap() []error }:
		if causes := u.Unwrap(); len(causes) == 1 {
			return causes[0]
		}
		return err
	}
	return nil
}

// exceptionOf is the type of a "Type: message" error text.
func exceptionOf(text string) string {
	name, _, _ := strings.Cut(text, ":")
	return name
}
