package host

import (
	"context"
	"encoding/json"
	"fmt"

	"golang.org/x/time/rate"
)

// RateLimit is a Hook that paces tool calls with limiter: every run of a
// listed tool (of every tool when none is listed) first waits for one of its
// tokens. The limiter is the caller's, so it may be shared by engines and
// changed while they run (SetLimit, SetBurst). A call started early waits on
// its worker, not holding up the program (which waits only when it claims
// the call). A call whose wait would outlast its execution's deadline, or
// whose execution ends while it waits, fails at once with the limiter's
// error and runs nothing.
//
// With Retry, the hook registered first is the outer one: register
// RateLimit after Retry to pace every attempt, before it to pace each call
// once.
func RateLimit(limiter *rate.Limiter, tools ...string) Hook {
	limited := toolFilter(tools)
	return Hook{Around: func(ctx context.Context, call CallInfo, next func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
		if !limited(call.Tool) {
			return next(ctx)
		}
		if err := limiter.Wait(ctx); err != nil {
			return nil, fmt.Errorf("%s: rate limit: %w", call.Tool, err)
		}
		return next(ctx)
	}}
}

// toolFilter reports whether a hook applies to a tool: every tool when
// tools is empty, else those named.
func toolFilter(tools []string) func(string) bool {
	if len(tools) == 0 {
		return func(string) bool { return true }
	}
	named := make(map[string]bool, len(tools))
	for _, name := range tools {
		named[name] = true
	}
	return func(tool string) bool { return named[tool] }
}
