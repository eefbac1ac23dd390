package bridge

// Result is what one execution produced on the guest side, whatever the
// transport: the response envelope of bootstrap.execute and the captured
// streams, plus why the host stopped the program, if it did.
type Result struct {
	Response    []byte // the response JSON of bootstrap.execute
	Stdout      []byte
	Stderr      []byte
	Interrupted Reason
}

// Reason is why the host stopped a program.
type Reason int

// The reasons; the numbers are those of guest-c/spine_runtime.h.
const (
	NotInterrupted Reason = 0
	Timeout        Reason = 1 // the wall-clock deadline passed
	Cancelled      Reason = 2 // the caller cancelled
	LimitExceeded  Reason = 3 // a host-side limit (tool calls) was exceeded
)
