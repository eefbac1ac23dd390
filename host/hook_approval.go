package host

import (
	"context"
	"errors"
)

// Approval is a Hook that asks decide before every call of the listed tools
// (of every tool when none is listed) runs, for instance to ask a human
// before send_email: approved runs the call; otherwise the program sees
// PermissionError(reason) at the call site ("not approved" when reason is
// empty). decide sees the tool and its arguments; it may block, and must
// return once ctx ends.
//
// Only calls the program makes are asked about: a call of a listed tool is
// never started early (PLM, streaming), so decide is never asked about a
// call the program might not make, nor twice about one call.
func Approval(decide func(ctx context.Context, call CallInfo) (approved bool, reason string), tools ...string) Hook {
	gated := toolFilter(tools)
	return Hook{Before: func(ctx context.Context, call CallInfo) error {
		if !gated(call.Tool) {
			return nil
		}
		if call.Early {
			return errNotEarly
		}
		approved, reason := decide(ctx, call)
		if approved {
			return nil
		}
		if reason == "" {
			reason = "not approved"
		}
		return errors.New(reason)
	}}
}

// errNotEarly keeps a call that needs approval from starting early.
var errNotEarly = errors.New("needs approval: not started before the program makes the call")
