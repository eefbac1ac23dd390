package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// Limits bound what one execution may ask of the host.
type Limits struct {
	// MaxToolCalls bounds the tool requests of an execution: every call and
	// every prepare counts, refused ones included (0: no bound).
	MaxToolCalls int
	MaxArgBytes  int // bytes of one tool request (0: 1 MiB)
	// MaxHostBytes is the byte budget of what the host keeps for the
	// execution (budget.go; 0: DefaultHostBytes), of which ReservedBytes
	// are taken up front for what is charged elsewhere (captured output).
	MaxHostBytes  int
	ReservedBytes int
}

// Call is one entry of an execution's trace.
type Call struct {
	Tool     string
	Args     json.RawMessage
	Start    time.Duration // since the execution started
	End      time.Duration
	Error    string // the tool error the program saw (or would have seen)
	Early    bool   // started by PLM or prefix before the program reached it
	Stream   bool   // started while the program was still streaming in
	Claimed  bool   // an early call whose result the program used
	Mismatch bool   // resolve found the prepared call did not match and ran the request again
	// ArgsTruncated: the request was refused and Args is a JSON string
	// holding the first RefusedPrefix bytes of what was sent, not its
	// arguments (they were malformed or longer than that).
	ArgsTruncated bool
	Stale         bool // an early call cancelled unclaimed because an effectful call changed what it reads
	Replayed      bool // answered from a journal: its tool did not run (journal.go)
}

// Config is what a Session needs beyond its context.
type Config struct {
	Tools   map[string]*Tool
	Limits  Limits
	Workers chan struct{} // semaphore bounding concurrent early calls; shared per engine
	// Abandoned counts the calls abandoned past Grace whose tool is still
	// running (shared per engine; nil: the session keeps its own count).
	Abandoned *atomic.Int64
	Native    NativeHandler         // hot functions; nil when native code is off
	Result    protocol.ResultLimits // what Accept checks the result against
	Hooks     Hooks                 // call hooks; nil: none
	// Stdout and Stderr receive the program's output live (output.go);
	// nil: only captured.
	Stdout, Stderr io.Writer
	// Recorder journals the execution's calls, replays a journal and
	// suspends at calls that need a decision (journal.go); nil: none.
	Recorder *Recorder
}

// Session is the host's side of one execution: every tool crossing of that
// execution goes through it. Its methods are safe for concurrent use.
type Session struct {
	ctx    context.Context
	cancel context.CancelFunc
	cfg    Config
	start  time.Time
	ended  atomic.Int64 // UnixNano when ctx ended; 0 before
	// unwatchEnd stops the watch that sets ended; Close sets it itself, so
	// ending a session starts no goroutine (a wake-up of another thread on
	// every execution).
	unwatchEnd func() bool

	ownAbandoned atomic.Int64

	outputMu       sync.Mutex // serialises the writes to Stdout and Stderr
	stdout, stderr liveOutput

	mu         sync.Mutex
	calls      []Call
	count      int
	limitHit   string
	stopTraced bool // the first refusal after a limit is traced, the rest only counted
	used       int  // bytes charged against the budget
	handles    map[uint64]*early
	stale      []*early // early calls an effect cancelled, settled at Close
	unreported []int    // the trace entries of evicted early calls, reported to the After hooks at Close
	order      []*early // prepared calls, oldest first (settled ones dropped lazily): eviction's order
	next       uint64
	prepared   int
	streaming  bool
	stop       func()
	deadline   atomic.Int64  // UnixNano of SetDeadline's deadline; 0: none. Not under mu: done() reads it with mu held
	changed    chan struct{} // closed (and replaced) whenever a started call's worker is done
	errs       []keptError   // the Go errors of failed tool calls, by id-1 (toolerror.go)

	// Responses that did not fit the transport's buffer, by the guest
	// thread that asked (Hold); guarded by mu.
	held map[uint64][]byte
	// inline: tool calls run on the program's thread (inline.go); running
	// holds those under way, guarded by mu.
	inline  bool
	running map[*inlineCall]struct{}
	// Ends ctx with a cause (EndProgram); cancel is it without one.
	cancelCause context.CancelCauseFunc
}

// SetDeadline sets the deadline of an execution whose context was made
// before its clock started (a stream's final execution); the transport
// enforces the earlier of it and the context's deadline.
func (s *Session) SetDeadline(t time.Time) {
	s.deadline.Store(t.UnixNano())
}

// Deadline is when the execution must stop, if it must.
func (s *Session) Deadline() (time.Time, bool) {
	d, ok := s.ctx.Deadline()
	if ns := s.deadline.Load(); ns != 0 {
		if set := time.Unix(0, ns); !ok || set.Before(d) {
			return set, true
		}
	}
	return d, ok
}

// SetStop tells the session how its transport stops the program when it
// exceeds a limit: a program must not be able to catch its way past one.
func (s *Session) SetStop(stop func()) {
	s.mu.Lock()
	s.stop = stop
	s.mu.Unlock()
}

// NewSession starts the session of one execution.
func NewSession(ctx context.Context, cfg Config) *Session {
	ctx, cancel := context.WithCancelCause(ctx)
	s := &Session{ctx: ctx, cancel: func() { cancel(nil) }, cancelCause: cancel, cfg: cfg, start: time.Now(), handles: map[uint64]*early{},
		changed: make(chan struct{}),
		used:    cfg.Limits.ReservedBytes}
	s.unwatchEnd = context.AfterFunc(ctx, func() { s.ended.Store(time.Now().UnixNano()) })
	return s
}

// Context is the execution's context, the one tools run with.
func (s *Session) Context() context.Context { return s.ctx }

// Since is the offset of now from the start of the execution.
func (s *Session) Since() time.Duration { return time.Since(s.start) }

// Ended says whether the execution's context has ended, and why (Timeout
// or Cancelled), or NotInterrupted. A transport answers a tool crossing with
// it, so that a tool cut short by the deadline stops the program at once:
// otherwise the tool's error could reach the program, and the program end
// with that error, before the transport's own deadline timer fires.
func (s *Session) Ended() Reason {
	if reason := ReasonFor(s.ctx); reason != NotInterrupted && !s.programEnded() {
		return reason
	}
	if s.pastDeadline() {
		return Timeout // done() refuses calls from this moment: the program must stop, not see the refusal
	}
	return NotInterrupted
}

// ReasonFor is why a context ended (Timeout or Cancelled), or NotInterrupted.
func ReasonFor(ctx context.Context) Reason {
	switch {
	case ctx.Err() == nil:
		return NotInterrupted
	case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return Timeout
	default:
		return Cancelled
	}
}

// LimitExceeded names the limit the program exceeded, or "".
func (s *Session) LimitExceeded() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limitHit
}

// done is the context's error, or DeadlineExceeded once the clock has passed
// its deadline: the context's timer fires a moment late, and a tool must not
// start in that moment.
func (s *Session) done() error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if s.pastDeadline() {
		return context.DeadlineExceeded
	}
	return nil
}

// pastDeadline says whether the clock has passed the execution's deadline
// (the context's, or the one SetDeadline gave a stream's final execution).
func (s *Session) pastDeadline() bool {
	deadline, ok := s.Deadline()
	return ok && !time.Now().Before(deadline)
}

// Calls returns the trace, ordered by start.
func (s *Session) Calls() []Call {
	s.mu.Lock()
	calls := append([]Call(nil), s.calls...)
	s.mu.Unlock()
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Start < calls[j].Start })
	return calls
}

// Call runs a tool request now and returns the response JSON. Every request
// counts against the tool call limit, refused ones too (unknown tool,
// malformed, over a limit, arguments the schema refuses); a refused request
// is traced with its tool and arguments cut to RefusedPrefix bytes. Nothing
// starts once the execution's context has ended: the transport then stops
// the program (Ended) before it can see the answer.
func (s *Session) Call(raw []byte) []byte {
	return s.call(raw, true, false)
}

// call serves a request the program makes now; fresh is false for a
// prepared call that runs as the program's own (it was counted and admitted
// when it was prepared), mismatch marks the rerun of a prepared call that
// did not match.
func (s *Session) call(raw []byte, fresh, mismatch bool) []byte {
	return s.callIssued(raw, fresh, mismatch, nil)
}

// callIssued is call for a request the recorder already issued (issued
// non-nil: a claimed early call whose response was evicted) or not.
func (s *Session) callIssued(raw []byte, fresh, mismatch bool, issued *ticket) []byte {
	start := s.Since()
	if err := s.done(); err != nil {
		return errorResponse("not started: " + err.Error())
	}
	req, err := parseRequest(raw, s.maxArgBytes())
	if err == nil && s.cfg.Recorder != nil && isClockRequest(req.Tool) {
		return s.clockResponse() // not a tool call: never counted nor traced
	}
	if fresh {
		if message := s.countCall(); message != "" {
			return s.refuse(refusedTrace(req.Tool, req.Args, raw), start, message)
		}
	}
	if err != nil {
		return s.refuse(refusedTrace(req.Tool, req.Args, raw), start, clipText(err.Error()))
	}
	tool := s.cfg.Tools[req.Tool]
	if tool == nil {
		call := refusedTrace(req.Tool, req.Args, raw)
		return s.refuse(call, start, fmt.Sprintf("unknown tool %q", call.Tool))
	}
	if err := tool.validate(req.Args); err != nil {
		return s.refuse(refusedTrace(req.Tool, req.Args, raw), start, err.Error())
	}
	if !s.Charge(traceCost(req.Tool, req.Args, "")) {
		return s.refuse(refusedTrace(req.Tool, req.Args, raw), start, s.LimitExceeded())
	}
	call := HookCall{Tool: tool, Args: req.Args, Mismatch: mismatch}
	var recorded ticket
	if issued != nil {
		recorded = *issued
	} else if rec := s.cfg.Recorder; rec != nil {
		var answer []byte
		var how verdict
		recorded, how, answer = rec.issue(call)
		switch how {
		case replayed, decided:
			return s.replayedCall(req.Tool, req.Args, start, answer, how == replayed)
		case halted:
			return s.haltedResponse(req.Tool, req.Args, start)
		}
	}
	denied := false
	trace := Call{Tool: req.Tool, Args: req.Args, Start: start, Mismatch: mismatch}
	response, toolErr, abandoned, reported := s.runTool(s.ctx, call, trace, func() ([]byte, string) {
		if fresh {
			if refusal := s.admit(s.ctx, call); refusal != "" {
				denied = true
				return deniedResponse(refusal), DeniedPrefix + refusal
			}
		}
		s.invalidate(tool) // only a call that runs changes what early calls read
		return s.run(s.ctx, call)
	})
	if reported {
		return response // the session is over: AbandonInline traced the call
	}
	trace.End, trace.Error = s.Since(), toolErr
	s.mu.Lock()
	s.used += len(toolErr) // the tool's own message: the host's code, charged as is
	s.calls = append(s.calls, trace)
	s.mu.Unlock()
	s.journal(recorded, response)
	s.after(call, trace, response, !abandoned && denied)
	return response
}

// MaxRequestBytes is the largest tool request the session accepts: a
// transport that receives a larger one need not read it (RefuseOversized).
func (s *Session) MaxRequestBytes() int { return requestBytes(s.maxArgBytes()) }

// RefuseOversized answers a tool request of `size` bytes that the transport
// skipped unread because it exceeds MaxRequestBytes: it counts like any
// request and gets the same refusal as one read in full (a prepare gets
// nothing), so the host never holds more than the limit of one request.
func (s *Session) RefuseOversized(size int, prepare bool) []byte {
	if err := s.ctx.Err(); err != nil {
		return errorResponse("not started: " + err.Error())
	}
	message := s.countCall()
	if prepare {
		return nil
	}
	if message == "" {
		message = oversizedMessage(size, s.maxArgBytes())
	}
	return s.refuse(refusedTrace("", nil, nil), s.Since(), message)
}

// Hold keeps a response the transport could not deliver in one piece, for
// Fetch by the same guest thread (`thread`: the transport's name for it;
// threads of a program cross at once, each with its own buffer).
func (s *Session) Hold(thread uint64, response []byte) {
	s.mu.Lock()
	if s.held == nil {
		s.held = map[uint64][]byte{}
	}
	s.held[thread] = response
	s.mu.Unlock()
}

// Fetch returns (and forgets) the response held for the guest thread.
func (s *Session) Fetch(thread uint64) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	held := s.held[thread]
	delete(s.held, thread)
	return held
}

// Close cancels every call still running for this execution and records
// the early calls nobody claimed in the trace. It waits for their tools at
// most Grace past the end of the execution's context: one still running then
// is abandoned (see Grace). Nothing else of the session outlives it.
func (s *Session) Close() {
	if s.unwatchEnd() {
		s.ended.CompareAndSwap(0, time.Now().UnixNano())
	}
	s.cancel()
	s.mu.Lock()
	pending := append(make([]*early, 0, len(s.handles)+len(s.stale)), s.stale...)
	s.stale = nil
	for handle, e := range s.handles {
		delete(s.handles, handle)
		pending = append(pending, e)
	}
	s.mu.Unlock()
	for _, e := range pending {
		s.settle(e, false)
	}
	s.reportEvicted()
}

func (s *Session) maxArgBytes() int {
	if s.cfg.Limits.MaxArgBytes > 0 {
		return s.cfg.Limits.MaxArgBytes
	}
	return 1 << 20
}

// countCall counts one request (a call or a prepare) against the tool call
// limit, or returns the limit's message when it is spent; the first request
// past it stops the program (SetStop): it must not be able to catch its way
// past the limit.
func (s *Session) countCall() string {
	s.mu.Lock()
	if s.limitHit != "" {
		message := s.limitHit
		s.mu.Unlock()
		return message
	}
	max := s.cfg.Limits.MaxToolCalls
	if max <= 0 || s.count < max {
		s.count++
		s.mu.Unlock()
		return ""
	}
	message := fmt.Sprintf("tool call limit of %d exceeded", max)
	stop := s.hitLocked(message)
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	return message
}

// refuse answers a request that never reached a tool and traces it. Once
// the program was stopped for a limit only the first refusal is traced: a
// guest that ignores the stop cannot grow the trace.
func (s *Session) refuse(call Call, start time.Duration, message string) []byte {
	call.Start, call.End, call.Error = start, s.Since(), message
	s.mu.Lock()
	if s.limitHit != "" {
		if s.stopTraced {
			s.mu.Unlock()
			return errorResponse(message)
		}
		s.stopTraced = true
	}
	cost := traceCost(call.Tool, call.Args, call.Error)
	ok, stop := s.chargeLocked(cost)
	if !ok {
		s.stopTraced = true
		s.used += cost // the one entry past the limit, bounded by RefusedPrefix
	}
	s.calls = append(s.calls, call)
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	return errorResponse(message)
}

// run runs the handler (through the Run hooks) on arguments the schema
// accepted, turning every failure (error, panic, invalid JSON result) into
// an error response.
func (s *Session) run(ctx context.Context, call HookCall) (response []byte, toolErr string) {
	value, err := s.invokeHooked(ctx, call)
	if err != nil {
		return s.failure(err), err.Error()
	}
	return valueResponse(value), ""
}

func invoke(ctx context.Context, tool *Tool, args json.RawMessage) (value json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			value, err = nil, fmt.Errorf("%s: tool panicked: %v", tool.Name, r)
		}
	}()
	value, err = tool.Handler(ctx, args)
	if err != nil {
		return nil, err
	}
	return checkedValue(tool, value)
}

// checkedValue is a tool's value as the program receives it: null for
// nothing, an error for what is not JSON.
func checkedValue(tool *Tool, value json.RawMessage) (json.RawMessage, error) {
	if len(value) == 0 {
		return json.RawMessage("null"), nil
	}
	if !json.Valid(value) {
		return nil, fmt.Errorf("%s: tool returned invalid JSON", tool.Name)
	}
	return value, nil
}
