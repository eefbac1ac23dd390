package wire

import (
	"errors"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// The terminal failures of a sandboxed execution are the transport-neutral
// ones of bridge (the host maps those to statuses without naming this
// package); these names let this package's code say them briefly.
var (
	ErrTimeout     = bridge.ErrTimeout
	ErrMemory      = bridge.ErrMemory
	ErrOutputLimit = bridge.ErrOutputLimit
	ErrCrashed     = bridge.ErrCrashed
	ErrViolation   = bridge.ErrViolation
)

// The pool's own failures.
var (
	// ErrClosed: the pool is closed.
	ErrClosed = errors.New("sandbox pool is closed")
	// ErrUnavailable: an isolation layer is missing and the caller did not
	// lower the level.
	ErrUnavailable = errors.New("sandbox isolation unavailable")
)
