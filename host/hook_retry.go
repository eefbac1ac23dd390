package host

import (
	"context"
	"encoding/json"
	"time"
)

// RetryOptions configure Retry. Zero fields take defaults.
type RetryOptions struct {
	// Attempts is how many times a call may run in all, the first included
	// (default 3).
	Attempts int
	// Backoff is the wait before the second run, doubled before each next
	// one (default 100ms), up to MaxBackoff (default 5s).
	Backoff, MaxBackoff time.Duration
	// Retryable says whether a failure is worth another run (nil: every
	// error is).
	Retryable func(error) bool
}

// Retry is a Hook that runs a failed call of a speculative tool again, with
// exponential backoff, up to opts.Attempts runs; the program sees the last
// run's outcome. A tool that is not speculative is never retried: it runs
// exactly as often as the program calls it (the engine refuses a second run
// of one whatever a hook asks). A backoff that would outlast the
// execution's deadline is not waited for: the call ends with its last
// error.
func Retry(opts RetryOptions) Hook {
	if opts.Attempts <= 0 {
		opts.Attempts = 3
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 100 * time.Millisecond
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 5 * time.Second
	}
	return Hook{Around: func(ctx context.Context, call CallInfo, next func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
		value, err := next(ctx)
		if !call.Speculative {
			return value, err
		}
		backoff := opts.Backoff
		for attempt := 1; err != nil && attempt < opts.Attempts; attempt++ {
			if opts.Retryable != nil && !opts.Retryable(err) {
				break
			}
			if !sleep(ctx, backoff) {
				break
			}
			backoff = min(2*backoff, opts.MaxBackoff)
			value, err = next(ctx)
		}
		return value, err
	}}
}

// sleep waits d unless ctx ends first, or would end before d passes; it
// reports whether it waited the whole of d.
func sleep(ctx context.Context, d time.Duration) bool {
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		return false
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}
