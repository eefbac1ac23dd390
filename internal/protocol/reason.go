package protocol

// Reason is why the host stopped a program; the guest reports it back in
// its result frame (spine_result.interrupted).
type Reason int

// The reasons.
const (
	NotInterrupted Reason = 0
	Timeout        Reason = 1 // the wall-clock deadline passed
	Cancelled      Reason = 2 // the caller cancelled
	LimitExceeded  Reason = 3 // a host-side limit (tool calls) was exceeded
)

// Known reports whether r is one of the reasons.
func (r Reason) Known() bool { return r >= NotInterrupted && r <= LimitExceeded }

func (r Reason) String() string {
	switch r {
	case NotInterrupted:
		return "not interrupted"
	case Timeout:
		return "timeout"
	case Cancelled:
		return "cancelled"
	case LimitExceeded:
		return "limit exceeded"
	}
	return "unknown reason"
}
