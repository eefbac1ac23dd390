package host

import (
	"context"
	"encoding/json"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// Hook intercepts tool calls: it sees every call that reaches a tool (a
// known tool, arguments its schema accepts, within the limits) before and
// after it runs, calls started early by PLM or streaming included. Every
// field is optional. RateLimit, Retry and Approval are ready-made hooks.
type Hook struct {
	// Before decides whether a call may run: nil allows it; an error denies
	// it, and the program sees PermissionError with the error's message
	// where it made the call (a program may catch it; uncaught, the
	// execution ends with StatusError and "PermissionError: message"). The
	// trace records the call with Error "denied: message".
	//
	// A call started early is asked about as it is prepared (call.Early):
	// denying it means only that it does not start early, and the program's
	// own call is asked about again when the program reaches it (an early
	// call allowed is not asked about again when the program claims it).
	// Before may block (a human's approval), but it runs while the program
	// waits, and like a tool it must return once ctx ends: one that does
	// not is abandoned ToolGrace later and the call with it.
	Before func(ctx context.Context, call CallInfo) error
	// Around runs where the call's tool runs (an early call: on a worker,
	// not holding up the program) and calls next to run the tool. It may
	// wait before next (a rate limit) and call next again after a failure (a
	// retry): next runs a speculative tool each time, but a tool that is not
	// speculative runs exactly as often as the program calls it, so a second
	// next of one runs nothing and returns an error matching ErrRunOnce.
	// With several hooks the first registered is the outermost.
	Around func(ctx context.Context, call CallInfo, next func(context.Context) (json.RawMessage, error)) (json.RawMessage, error)
	// After sees how a call ended: a call the program made once it ran (or
	// was denied, or abandoned); a call started early once the program
	// claimed it (call.Claimed) or the execution ended without it. It runs
	// while the program or the end of the execution waits: it must return
	// promptly.
	After func(ctx context.Context, call CallInfo, end CallEnd)
	// Suspend, when it returns true for a call the program makes, suspends
	// the execution at that call before any Before hook or the tool runs:
	// it ends with StatusSuspended and a journal for Engine.Resume (see
	// ToolSpec.Approval). An engine with a Suspend hook keeps a journal of
	// every execution. A call started early is asked about with
	// call.Early: true suspends nothing then, but keeps it from starting
	// early. It is not asked about calls a resume answers from its journal.
	// It must return promptly.
	Suspend func(call CallInfo) bool
}

// CallInfo is a tool call as a Hook sees it.
type CallInfo struct {
	Tool string
	// Args is the JSON object of the keyword arguments; it must not be
	// modified.
	Args        json.RawMessage
	Speculative bool // the tool has no side effects (ToolSpec.Speculative)
	Early       bool // started before the program reached it (PLM or streaming)
	Stream      bool // started while the program was still arriving
	Claimed     bool // After: an early call whose result the program used
	// Mismatch: the program's call did not match the call prepared for it,
	// and runs afresh.
	Mismatch bool
}

// CallEnd is how a call ended, as After sees it.
type CallEnd struct {
	// Start and End bound the tool's run; Start is zero for an early call
	// cancelled before it started.
	Start, End time.Time
	// Error is the call's error as the trace records it ("" on success).
	Error  string
	Denied bool // a Before hook denied it
	Stale  bool // an early call cancelled because an effectful call changed what it reads
	Bytes  int  // bytes of the answer the program received (or would have)
}

// ErrRunOnce is what an Around hook's second next returns for a tool that
// is not speculative: it ran once already, and runs no more.
var ErrRunOnce = bridge.ErrRunOnce

// WithHooks registers call hooks, in order: the first Before to deny wins,
// the first Around is the outermost, every After runs.
func WithHooks(hooks ...Hook) Option {
	return func(c *config) error { c.hooks = append(c.hooks, hooks...); return nil }
}

// hookChain runs an engine's hooks for the bridge.
type hookChain []Hook

var _ bridge.Hooks = hookChain(nil)

// newHookChain is the engine's hooks: nil when there are none, so that an
// engine without hooks pays nothing for them.
func newHookChain(hooks []Hook) bridge.Hooks {
	if len(hooks) == 0 {
		return nil
	}
	return hookChain(append([]Hook(nil), hooks...))
}

func callInfo(call bridge.HookCall) CallInfo {
	return CallInfo{Tool: call.Tool.Name, Args: call.Args, Speculative: call.Tool.Speculative, Early: call.Early,
		Stream: call.Stream, Claimed: call.Claimed, Mismatch: call.Mismatch}
}

func (c hookChain) Before(ctx context.Context, call bridge.HookCall) error {
	info := callInfo(call)
	for _, h := range c {
		if h.Before == nil {
			continue
		}
		if err := h.Before(ctx, info); err != nil {
			return err
		}
	}
	return nil
}

func (c hookChain) Run(ctx context.Context, call bridge.HookCall, run func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	info := callInfo(call)
	next := run
	for i := len(c) - 1; i >= 0; i-- {
		if around := c[i].Around; around != nil {
			inner := next
			next = func(ctx context.Context) (json.RawMessage, error) { return around(ctx, info, inner) }
		}
	}
	return next(ctx)
}

func (c hookChain) After(ctx context.Context, call bridge.HookCall, end bridge.HookEnd) {
	info := callInfo(call)
	out := CallEnd{Start: end.Start, End: end.End, Error: end.Error, Denied: end.Denied, Stale: end.Stale, Bytes: end.Bytes}
	for _, h := range c {
		if h.After != nil {
			h.After(ctx, info, out)
		}
	}
}
