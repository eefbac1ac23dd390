package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// Limits bound what one execution may ask of the host.
type Limits struct {
	MaxToolCalls int // tool calls per execution, including calls started early
	MaxArgBytes  int // bytes of one tool request
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
	Stale    bool   // an early call cancelled unclaimed because an effectful call changed what it reads
}

// Config is what a Session needs beyond its context.
type Config struct {
	Tools   map[string]*Tool
	Limits  Limits
	Workers chan struct{}         // semaphore bounding concurrent early calls; shared per engine
	Native  NativeHandler         // hot functions; nil when native code is off
	Result  protocol.ResultLimits // what Accept checks the result against
}

// Session is the host's side of one execution: every tool crossing of that
// execution goes through it. Its methods are safe for concurrent use.
type Session struct {
	ctx    context.Context
	cancel context.CancelFunc
	cfg    Config
	start  time.Time

	mu        sync.Mutex
	calls     []Call
	count     int
	limitHit  string
	held      []byte // a response that did not fit the transport's buffer
	handles   map[uint64]*early
	next      uint64
	prepared  int
	streaming bool
	stop      func()
	deadline  time.Time
	workers   sync.WaitGroup
}

// SetDeadline sets the deadline of an execution whose context was made
// before its clock started (a stream's final execution); the transport
// enforces the earlier of it and the context's deadline.
func (s *Session) SetDeadline(t time.Time) {
	s.mu.Lock()
	s.deadline = t
	s.mu.Unlock()
}

// Deadline is when the execution must stop, if it must.
func (s *Session) Deadline() (time.Time, bool) {
	s.mu.Lock()
	set := s.deadline
	s.mu.Unlock()
	d, ok := s.ctx.Deadline()
	if !set.IsZero() && (!ok || set.Before(d)) {
		return set, true
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
	ctx, cancel := context.WithCancel(ctx)
	return &Session{ctx: ctx, cancel: cancel, cfg: cfg, start: time.Now(), handles: map[uint64]*early{}}
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
	return ReasonFor(s.ctx)
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
	if deadline, ok := s.ctx.Deadline(); ok && !time.Now().Before(deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// Calls returns the trace, ordered by start.
func (s *Session) Calls() []Call {
	s.mu.Lock()
	calls := append([]Call(nil), s.calls...)
	s.mu.Unlock()
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Start < calls[j].Start })
	return calls
}

// Call runs a tool request now and returns the response JSON.
func (s *Session) Call(raw []byte) []byte {
	start := s.Since()
	req, err := parseRequest(raw, s.maxArgBytes())
	if err != nil {
		return s.refuse(req, start, err.Error())
	}
	tool, message := s.admit(req, true)
	if tool == nil {
		return s.refuse(req, start, message)
	}
	// No tool starts once the execution's context is done: the program is
	// being stopped, and an effect now would happen after its deadline (or
	// its caller's cancel), when a retry may already be under way. (Admitted
	// first, so a call over the limit still reports the limit.)
	if err := s.done(); err != nil {
		return s.refuse(req, start, "not started: "+err.Error())
	}
	s.invalidate(tool)
	response, toolErr := s.run(s.ctx, tool, req.Args)
	s.record(Call{Tool: req.Tool, Args: req.Args, Start: start, End: s.Since(), Error: toolErr})
	return response
}

// Hold keeps a response the transport could not deliver in one piece, for Fetch.
func (s *Session) Hold(response []byte) {
	s.mu.Lock()
	s.held = response
	s.mu.Unlock()
}

// Fetch returns (and forgets) the held response.
func (s *Session) Fetch() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	held := s.held
	s.held = nil
	return held
}

// Close cancels every call still running for this execution, waits for its
// workers, and records unclaimed early calls in the trace. Nothing of the
// session outlives it.
func (s *Session) Close() {
	s.cancel()
	s.workers.Wait()
	s.mu.Lock()
	for handle, e := range s.handles {
		delete(s.handles, handle)
		s.calls = append(s.calls, e.trace())
	}
	s.mu.Unlock()
}

func (s *Session) maxArgBytes() int {
	if s.cfg.Limits.MaxArgBytes > 0 {
		return s.cfg.Limits.MaxArgBytes
	}
	return 1 << 20
}

// admit finds the tool and counts the call against the limit. A call over the
// limit stops the program (OnLimit); its error tells why.
func (s *Session) admit(req toolRequest, now bool) (*Tool, string) {
	tool := s.cfg.Tools[req.Tool]
	if tool == nil {
		return nil, fmt.Sprintf("unknown tool %q", req.Tool)
	}
	s.mu.Lock()
	over := s.cfg.Limits.MaxToolCalls > 0 && s.count >= s.cfg.Limits.MaxToolCalls
	if !over {
		s.count++
	}
	first := over && s.limitHit == "" && now
	if first {
		s.limitHit = fmt.Sprintf("tool call limit of %d exceeded", s.cfg.Limits.MaxToolCalls)
	}
	stop := s.stop
	s.mu.Unlock()
	if over {
		if first && stop != nil {
			stop()
		}
		return nil, fmt.Sprintf("tool call limit of %d exceeded", s.cfg.Limits.MaxToolCalls)
	}
	return tool, ""
}

// refuse records and answers a request that never reached a tool.
func (s *Session) refuse(req toolRequest, start time.Duration, message string) []byte {
	s.record(Call{Tool: req.Tool, Args: req.Args, Start: start, End: s.Since(), Error: message})
	return errorResponse(message)
}

func (s *Session) record(call Call) {
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.mu.Unlock()
}

// run validates the arguments and runs the handler, turning every failure
// (schema mismatch, error, panic, invalid JSON result) into an error response.
func (s *Session) run(ctx context.Context, tool *Tool, args json.RawMessage) (response []byte, toolErr string) {
	if err := tool.validate(args); err != nil {
		return errorResponse(err.Error()), err.Error()
	}
	value, err := invoke(ctx, tool, args)
	if err != nil {
		return errorResponse(err.Error()), err.Error()
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
	if len(value) == 0 {
		return json.RawMessage("null"), nil
	}
	if !json.Valid(value) {
		return nil, fmt.Errorf("%s: tool returned invalid JSON", tool.Name)
	}
	return value, nil
}
