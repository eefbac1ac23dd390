package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// Hooks intercept the tool calls of a session: the embedding application's
// call hooks (approval, rate limits, retries) and its telemetry. They see
// every call that reaches a tool (a known tool, arguments the schema
// accepts, within the limits), early ones included; a request refused
// before that is only traced.
type Hooks interface {
	// Before admits a call before its tool runs. A call the program makes is
	// admitted where it makes it; a call started early is admitted as it is
	// prepared (HookCall.Early), and a refusal then only means it does not
	// start early: the program's own call asks again. A non-nil error
	// refuses the call: the program sees PermissionError with its message.
	// It may block (a human's approval); it is bounded like a tool (Grace).
	Before(ctx context.Context, call HookCall) error
	// Run runs the call's tool through the hooks, where the tool runs (an
	// early call on its worker, not holding up the program). They may wait
	// before it (rate limits) and run it again after a failure (retries):
	// run runs the tool on every call for a speculative tool, and once at
	// all for an effectful one, which runs exactly as often as the program
	// calls it (a second run returns ErrRunOnce and runs nothing).
	Run(ctx context.Context, call HookCall, run func(context.Context) (json.RawMessage, error)) (json.RawMessage, error)
	// After reports how a call ended: a call the program made once its tool
	// returned (or was refused, or abandoned); an early call once the program
	// claimed it (HookCall.Claimed) or the execution ended without it. It
	// must return promptly: the program, or the end of the execution, waits
	// for it.
	After(ctx context.Context, call HookCall, end HookEnd)
}

// HookCall is a tool call as hooks see it.
type HookCall struct {
	Tool   *Tool
	Args   json.RawMessage // the arguments as the program sent them; read-only
	Early  bool            // started before the program reached it (PLM, prefix)
	Stream bool            // started while the program was still streaming in
	// Claimed (After only): an early call whose result the program used.
	Claimed bool
	// Mismatch: the program's call did not match what was prepared, and runs again.
	Mismatch bool
}

// HookEnd is how a call ended.
type HookEnd struct {
	Start, End time.Time // zero Start: it never started (an early call cancelled while it waited for a worker)
	Error      string    // as traced; "" on success
	Denied     bool      // a Before hook refused it
	Stale      bool      // an early call an effectful call made stale
	Bytes      int       // the response the program received (or would have)
}

// ErrRunOnce is what a hook's second run of an effectful tool returns.
var ErrRunOnce = errors.New("not run again: a tool with side effects runs exactly once per call of the program")

// DeniedPrefix starts the trace's error of a call a hook refused.
const DeniedPrefix = "denied: "

// deniedResponse is the answer to a refused call: PermissionError(message).
func deniedResponse(message string) []byte {
	encoded, _ := json.Marshal(protocol.ToolResponse{Error: &message, Type: protocol.ToolErrorPermission})
	return encoded
}

// admit asks the Before hooks about a call: "" admits it, anything else is
// the refusal's message. The caller bounds it like a tool (Grace).
func (s *Session) admit(ctx context.Context, call HookCall) string {
	hooks := s.cfg.Hooks
	if hooks == nil {
		return ""
	}
	err := guarded(func() error { return hooks.Before(ctx, call) })
	if err == nil {
		return ""
	}
	if message := err.Error(); message != "" {
		return clipText(message)
	}
	return "refused by a call hook"
}

// invokeHooked runs the tool through the Run hooks (or directly, without
// hooks). A panic of a hook, like one of the tool, is the call's error.
func (s *Session) invokeHooked(ctx context.Context, call HookCall) (json.RawMessage, error) {
	hooks := s.cfg.Hooks
	if hooks == nil {
		return invoke(ctx, call.Tool, call.Args)
	}
	var runs atomic.Int32
	run := func(ctx context.Context) (json.RawMessage, error) {
		if runs.Add(1) > 1 && !call.Tool.Speculative {
			return nil, fmt.Errorf("%s: %w", call.Tool.Name, ErrRunOnce)
		}
		if err := s.done(); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return invoke(ctx, call.Tool, call.Args)
	}
	var value json.RawMessage
	err := guarded(func() error {
		var err error
		value, err = hooks.Run(ctx, call, run)
		return err
	})
	if err != nil {
		return nil, err
	}
	return checkedValue(call.Tool, value)
}

// after reports a call's end to the After hooks.
func (s *Session) after(call HookCall, trace Call, response []byte, denied bool) {
	hooks := s.cfg.Hooks
	if hooks == nil {
		return
	}
	end := HookEnd{End: s.start.Add(trace.End), Error: trace.Error, Denied: denied, Stale: trace.Stale, Bytes: len(response)}
	if trace.Start > 0 || trace.End > 0 {
		end.Start = s.start.Add(trace.Start)
	}
	call.Claimed = trace.Claimed
	_ = guarded(func() error { hooks.After(s.ctx, call, end); return nil })
}

// earlyCall is the hooks' view of a prepared call.
func earlyCall(e *early) HookCall {
	return HookCall{Tool: e.tool, Args: e.args, Early: !e.now, Stream: e.streaming}
}

// guarded runs fn, turning a panic into an error.
func guarded(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("call hook panicked: %v", r)
		}
	}()
	return fn()
}

// admitPrepared asks the Before hooks about a prepared call (bounded like
// a tool). A guess (PLM, prefix) they refuse is not started (false): the
// program's own call asks again if the program makes it. The program's own
// call started to be awaited later (`now`) is its one asking: refused, it
// starts as the refusal (refusal != ""), which its resolve delivers.
func (s *Session) admitPrepared(tool *Tool, args json.RawMessage, now bool) (refusal string, start bool) {
	if s.cfg.Hooks == nil {
		return "", true
	}
	s.mu.Lock()
	call := HookCall{Tool: tool, Args: args, Early: !now, Stream: s.streaming && !now}
	s.mu.Unlock()
	var answer string // written by the bounded goroutine: read only once it is done
	if !s.bounded(s.ctx, func() { answer = s.admit(s.ctx, call) }) {
		return "", false // its context ended: it would not start anyway
	}
	return answer, answer == "" || now
}

// reportEvicted tells the After hooks about the early calls whose responses
// were evicted (budget.go), which end outside any caller of the hooks. Only
// their trace entries are kept (the budget charged those), so a hook sees
// their arguments as traced: cut short when they were long.
func (s *Session) reportEvicted() {
	if s.cfg.Hooks == nil {
		return
	}
	s.mu.Lock()
	evicted := make([]Call, len(s.unreported))
	for i, index := range s.unreported {
		evicted[i] = s.calls[index]
	}
	s.unreported = nil
	s.mu.Unlock()
	for _, trace := range evicted {
		if tool := s.cfg.Tools[trace.Tool]; tool != nil {
			s.after(HookCall{Tool: tool, Args: trace.Args, Early: true, Stream: trace.Stream}, trace, nil, false)
		}
	}
}
