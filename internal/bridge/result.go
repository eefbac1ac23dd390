package bridge

import "github.com/spine-sandbox/spine/internal/protocol"

// Result is what one execution produced on the guest side, whatever the
// transport: the response envelope of bootstrap.execute and the captured
// streams, plus why the host stopped the program, if it did.
type Result struct {
	Response    []byte // the response JSON of bootstrap.execute
	Stdout      []byte
	Stderr      []byte
	Interrupted Reason

	envelope *protocol.Response // set by Session.Accept only
}

// Envelope is the decoded response, once Session.Accept has checked the
// result; nil before (the host believes no result it did not check).
func (r *Result) Envelope() *protocol.Response { return r.envelope }

// Reason is why the host stopped a program; the vocabulary is protocol's.
type Reason = protocol.Reason

// The reasons, by the names the transports use.
const (
	NotInterrupted = protocol.NotInterrupted
	Timeout        = protocol.Timeout
	Cancelled      = protocol.Cancelled
	LimitExceeded  = protocol.LimitExceeded
)
