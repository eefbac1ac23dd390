package wire

import "errors"

// The terminal failures of a sandboxed execution, for errors.Is. Every error
// Guest.Execute or Guest.Entry returns wraps exactly one of them (or
// context.Canceled when the caller cancelled), with a message saying what
// happened. The host maps them to the statuses of the same names.
var (
	// ErrTimeout: the child was killed at its deadline plus the grace (a
	// long C call, e.g. 10**10**8), or it used up its CPU seconds. A program
	// stopped cleanly by the deadline is not an error: its Result says
	// Interrupted == bridge.Timeout.
	ErrTimeout = errors.New("timeout")
	// ErrMemory: the program ran out of its memory limit. Returned with a
	// Result when the program raised MemoryError (what it printed is kept).
	ErrMemory = errors.New("memory")
	// ErrOutputLimit: the child wrote more than the limit to its stdout or
	// stderr descriptors, or returned more captured output than allowed.
	ErrOutputLimit = errors.New("output_limit")
	// ErrCrashed: the child died on its own (segfault, abort, os._exit, a
	// kill from outside, a closed channel), or the zygote did.
	ErrCrashed = errors.New("crashed")
	// ErrViolation: the child broke the policy (a system call the seccomp
	// allowlist refuses) or the protocol (a malformed, oversized or
	// unexpected frame).
	ErrViolation = errors.New("violation")
	// ErrClosed: the pool is closed.
	ErrClosed = errors.New("sandbox pool is closed")
	// ErrUnavailable: an isolation layer is missing and the caller did not
	// lower the level.
	ErrUnavailable = errors.New("sandbox isolation unavailable")
)
