package bridge

import (
	"encoding/json"
	"errors"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// TypedError is a tool error that names the Python exception the program
// sees (host.ToolError is one); any other error raises the default,
// RuntimeError. A name outside protocol.ToolExceptions raises the default.
type TypedError interface {
	error
	PythonException() string
}

// maxKeptErrors bounds the tool errors one session keeps for
// ToolError: the tool call limit bounds them too, this whatever it is.
const maxKeptErrors = 1 << 16

// keptError is the Go error of one failed tool call, kept so that the
// caller can reach it (errors.As) when the program does not catch it.
type keptError struct {
	err       error
	exception string
}

// failure is the response to a call whose tool returned err: the message,
// the exception it raises, and the id the guest reports if it escapes.
func (s *Session) failure(err error) []byte {
	exception := protocol.ToolExceptions[0]
	var typed TypedError
	if errors.As(err, &typed) {
		exception = protocol.ToolException(typed.PythonException())
	}
	message := err.Error()
	response := protocol.ToolResponse{Error: &message}
	if exception != protocol.ToolExceptions[0] {
		response.Type = exception
	}
	s.mu.Lock()
	if len(s.errs) < maxKeptErrors {
		s.errs = append(s.errs, keptError{err: err, exception: exception})
		response.Call = uint64(len(s.errs))
	}
	s.mu.Unlock()
	encoded, _ := json.Marshal(response)
	return encoded
}

// ToolError is the Go error of the failed call `id` (a guest's
// Response.Call) if the session issued that id and its exception is the
// one the program raised; nil otherwise: nothing a guest reports reaches
// an error it was not given.
func (s *Session) ToolError(id uint64, exception string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == 0 || id > uint64(len(s.errs)) {
		return nil
	}
	kept := s.errs[id-1]
	if kept.exception != exception {
		return nil
	}
	return kept.err
}
