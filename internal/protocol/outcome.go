package protocol

// Outcome is the kind of failure a guest claims in an error Response. The
// guest may claim only what it alone can know: that the program raised, that
// the program's result broke the result limits (the value never left the
// guest), or that the program met an interrupt (the host then decides the
// status from what it asked for itself). Everything else is the host's to
// say: a bad request, a host limit (tool calls), a timeout, a crash. A
// response claiming any other outcome is a breach.
type Outcome string

// The outcomes a guest may claim.
const (
	OutcomeProgram     Outcome = "program"      // the program raised
	OutcomeResultLimit Outcome = "result_limit" // the result exceeded ResultBytes or ResultDepth
	OutcomeInterrupt   Outcome = "interrupt"    // the program met _spine.Interrupt
)

// GuestOutcomes lists them.
var GuestOutcomes = []Outcome{OutcomeProgram, OutcomeResultLimit, OutcomeInterrupt}

// Claimable reports whether a guest may claim o.
func (o Outcome) Claimable() bool {
	for _, g := range GuestOutcomes {
		if o == g {
			return true
		}
	}
	return false
}
