package bridge

import "errors"

// The terminal failures of an execution's guest, for errors.Is, whatever the
// transport. Every error Guest.Execute or Guest.Entry returns wraps exactly
// one of them (or context.Canceled when the caller cancelled), with a
// message saying what happened. The host maps them to the statuses of the
// same names.
var (
	// ErrTimeout: the guest did not stop at its deadline and was killed (the
	// sandbox, after a grace: a long C call, e.g. 10**10**8) or abandoned
	// (in process, where such a call cannot be interrupted), or it used up
	// its CPU seconds. A program stopped cleanly at the deadline is not an
	// error: its Result says Interrupted == Timeout.
	ErrTimeout = errors.New("timeout")
	// ErrMemory: the program ran out of its memory limit. Returned with a
	// Result when the program raised MemoryError (what it printed is kept).
	ErrMemory = errors.New("memory")
	// ErrOutputLimit: the guest wrote more than the limit to its stdout or
	// stderr descriptors.
	ErrOutputLimit = errors.New("output_limit")
	// ErrCrashed: the guest died on its own (segfault, abort, os._exit, a
	// kill from outside, a closed channel), or could not run the request.
	ErrCrashed = errors.New("crashed")
	// ErrViolation: the guest broke the policy (a system call the seccomp
	// allowlist refuses) or the protocol (a malformed, oversized or
	// unexpected frame; a result Session.Accept refuses).
	ErrViolation = errors.New("violation")
	// ErrSessionGone: a session's child was already gone (killed, crashed,
	// closed) when an execution was handed to it, so nothing ran; its
	// namespace went with it. Only a session's guest returns it, and the
	// host reports it as the session's end, not as the program's failure.
	ErrSessionGone = errors.New("the session's sandboxed child is gone")
)
