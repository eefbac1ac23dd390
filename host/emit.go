package host

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
)

// emitted collects the values tools emit during one execution.
type emitted struct {
	mu     sync.Mutex
	values []json.RawMessage
	charge func(bytes int) bool // the execution's host memory budget
}

// emitOverhead is what keeping one value costs beyond its bytes.
const emitOverhead = 32

type emittedKey struct{}

// Emit appends value to the execution's emitted list (Response.Emitted) and
// returns the list's new length. ctx must be the context a tool handler was
// called with. It is how an effectful tool reports what it did.
func Emit(ctx context.Context, value json.RawMessage) (int, error) {
	sink, _ := ctx.Value(emittedKey{}).(*emitted)
	if sink == nil {
		return 0, errors.New("spine: Emit needs the context of a tool call")
	}
	if !json.Valid(value) {
		return 0, errors.New("spine: Emit needs a JSON value")
	}
	if sink.charge != nil && !sink.charge(len(value)+emitOverhead) {
		return 0, errors.New("spine: Emit: the execution's host memory limit is spent")
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	sink.values = append(sink.values, append(json.RawMessage(nil), value...))
	return len(sink.values), nil
}

func (e *emitted) list() []json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]json.RawMessage(nil), e.values...)
}
