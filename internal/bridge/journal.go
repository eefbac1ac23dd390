package bridge

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// RecordedCall is one tool call of a journal: the call as the program made
// it and the response it received. Occurrence is how many calls of the same
// tool with the same (canonical) arguments the program made before it: a
// replay matches a call to its record by tool, arguments and occurrence, so
// calls that concurrent code (threads, asyncio) issues in another order
// still meet their own results, and a call the record never saw is caught.
type RecordedCall struct {
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	Occurrence int             `json:"occurrence"`
	// Response is the tool response the program received
	// ({"value": ...} or {"error": ..., "type": ...}); absent on a pending call.
	Response json.RawMessage `json:"response,omitempty"`
}

// Decision is what a replay does with the pending call once the program
// reaches it again: run its tool (Run), or answer it with Response without
// running anything (a denial, or a value given in its place).
type Decision struct {
	Run      bool
	Response []byte
}

// RecorderConfig sets up a Recorder: for a first run only Suspends; for a
// replay also the journal's calls, clock and pending call.
type RecorderConfig struct {
	Replay   []RecordedCall
	Clock    []int64
	Pending  *RecordedCall // nil: a first run, live from the start
	Decision Decision
	// Suspends says whether a call the program makes must wait for a
	// decision (a tool that needs approval, a hook's choice): the execution
	// then ends suspended, with this call pending.
	Suspends func(call HookCall) bool
	// Refuse, when set, answers a call Suspends picks with
	// PermissionError(Refuse) instead of suspending: for executions that
	// cannot be suspended (a session's). Nothing is journaled then.
	Refuse string
}

// Halt is why a recorded execution was stopped early.
type Halt int

const (
	Running   Halt = iota
	Suspended      // a call needs a decision
	Diverged       // the replay asked for something the journal does not hold
)

// Recorder keeps the journal of one execution: it answers the calls a
// replay made before from the record, without running their tools, applies
// the decision to the pending call, and records every call answered live.
// Its methods are safe for concurrent use.
type Recorder struct {
	cfg RecorderConfig

	mu        sync.Mutex
	byKey     map[string]map[int]int // key → occurrence → index in cfg.Replay
	seen      map[string]int         // calls issued so far, per key
	live      bool                   // past the pending call (a first run: from the start)
	log       []*RecordedCall        // every call answered, in the order the program issued them
	clock     []int64                // every clock reading the program received
	halt      Halt
	pending   *RecordedCall // the call the execution suspended at
	divergent string
}

// NewRecorder makes the recorder of one execution.
func NewRecorder(cfg RecorderConfig) (*Recorder, error) {
	r := &Recorder{cfg: cfg, byKey: map[string]map[int]int{}, seen: map[string]int{}, live: cfg.Pending == nil}
	for i, c := range cfg.Replay {
		key, err := callKey(c.Tool, c.Args)
		if err != nil {
			return nil, fmt.Errorf("journal call %d (%s): arguments are not JSON: %v", i, c.Tool, err)
		}
		if r.byKey[key] == nil {
			r.byKey[key] = map[int]int{}
		}
		if _, dup := r.byKey[key][c.Occurrence]; dup {
			return nil, fmt.Errorf("journal call %d (%s): occurrence %d recorded twice", i, c.Tool, c.Occurrence)
		}
		r.byKey[key][c.Occurrence] = i
	}
	return r, nil
}

func callKey(tool string, args json.RawMessage) (string, error) {
	key, err := canonical(args)
	if err != nil {
		return "", err
	}
	return tool + "\x00" + string(key), nil
}

// verdict is how a call the program issues is answered.
type verdict int

const (
	runLive  verdict = iota // run the tool, record its response
	replayed                // answer with the recorded response
	decided                 // the pending call: answer with the decision's response
	halted                  // the execution stops: answer nothing
)

// ticket is a call issued under a recorder, to record once answered.
type ticket struct {
	entry *RecordedCall
}

// issue is asked when the program issues a call (its own, or a call started
// early that it claims): it says how the call is answered.
func (r *Recorder) issue(call HookCall) (ticket, verdict, []byte) {
	key, err := callKey(call.Tool.Name, call.Args)
	if err != nil { // validated before: cannot happen; never answered from the record
		key = call.Tool.Name + "\x00" + string(call.Args)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halt != Running {
		return ticket{}, halted, nil
	}
	occurrence := r.seen[key]
	r.seen[key]++
	entry := &RecordedCall{Tool: call.Tool.Name, Args: call.Args, Occurrence: occurrence}
	if index, ok := r.byKey[key][occurrence]; ok {
		delete(r.byKey[key], occurrence)
		entry.Response = r.cfg.Replay[index].Response
		r.log = append(r.log, entry)
		return ticket{}, replayed, entry.Response
	}
	if p := r.cfg.Pending; !r.live && p != nil && p.Tool == call.Tool.Name && p.Occurrence == occurrence && samePendingArgs(p, key) {
		r.live = true
		r.log = append(r.log, entry)
		if r.cfg.Decision.Run {
			return ticket{entry}, runLive, nil
		}
		entry.Response = r.cfg.Decision.Response
		return ticket{}, decided, entry.Response
	}
	if !r.live {
		r.halt = Diverged
		r.divergent = fmt.Sprintf("the program called %s(%s) (occurrence %d), which the journal does not hold before its pending call %s",
			call.Tool.Name, clipText(string(call.Args)), occurrence, describePending(r.cfg.Pending))
		return ticket{}, halted, nil
	}
	if r.cfg.Suspends != nil {
		// The hooks are the application's code: never asked under the lock.
		r.mu.Unlock()
		suspend := r.cfg.Suspends(call)
		r.mu.Lock()
		if r.halt != Running {
			return ticket{}, halted, nil
		}
		if suspend && r.cfg.Refuse != "" {
			return ticket{}, decided, deniedResponse(r.cfg.Refuse)
		}
		if suspend {
			r.halt = Suspended
			r.pending = entry
			return ticket{}, halted, nil
		}
	}
	if r.cfg.Refuse != "" {
		return ticket{}, runLive, nil // nothing is journaled
	}
	r.log = append(r.log, entry)
	return ticket{entry}, runLive, nil
}

func samePendingArgs(p *RecordedCall, key string) bool {
	pendingKey, err := callKey(p.Tool, p.Args)
	return err == nil && pendingKey == key
}

func describePending(p *RecordedCall) string {
	if p == nil {
		return "(none)"
	}
	return fmt.Sprintf("%s(%s)", p.Tool, clipText(string(p.Args)))
}

// record notes the response of a call answered live (nil-safe: a session
// without a recorder records nothing).
func (r *Recorder) record(t ticket, response []byte) {
	if r == nil || t.entry == nil {
		return
	}
	r.mu.Lock()
	t.entry.Response = recordable(response)
	r.mu.Unlock()
}

// journal records a live call's response, charging it to the execution's
// byte budget: the journal keeps every result until the execution ends.
func (s *Session) journal(t ticket, response []byte) {
	if t.entry == nil {
		return
	}
	s.cfg.Recorder.record(t, response)
	s.Charge(len(response))
}

// recordable is a response as a journal keeps it: without the id of the
// Go error the session kept (it means nothing to another execution).
func recordable(response []byte) json.RawMessage {
	var decoded protocol.ToolResponse
	if json.Unmarshal(response, &decoded) != nil || decoded.Call == 0 {
		return append(json.RawMessage(nil), response...)
	}
	decoded.Call = 0
	encoded, _ := json.Marshal(decoded)
	return encoded
}

// Clock is the wall-clock reading the program receives (UnixNano): the
// recorded one while the replay has readings left, else now, recorded. A
// replay that reads the clock more often than the record did before its
// pending call has diverged.
func (r *Recorder) Clock() (int64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.clock); n < len(r.cfg.Clock) {
		r.clock = append(r.clock, r.cfg.Clock[n])
		return r.cfg.Clock[n], true
	}
	if !r.live && r.halt == Running {
		r.halt = Diverged
		r.divergent = fmt.Sprintf("the program read the clock more often (%d) than the journal holds before its pending call %s",
			len(r.clock)+1, describePending(r.cfg.Pending))
		return 0, false
	}
	now := time.Now().UnixNano()
	if r.cfg.Refuse == "" { // an execution that keeps no journal keeps no readings
		r.clock = append(r.clock, now)
	}
	return now, true
}

// Halted is why the execution was stopped (Running: it was not).
func (r *Recorder) Halted() Halt {
	if r == nil {
		return Running
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.halt
}

// Divergence says how a replay diverged ("" when it did not).
func (r *Recorder) Divergence() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.divergent
}

// ReachedPending says whether a replay reached its pending call (a first
// run always has).
func (r *Recorder) ReachedPending() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live
}

// Journal is what was recorded: the calls answered (in the order the
// program issued them; a call whose tool was cut short has the response it
// got), the clock readings, and the pending call of a suspended execution.
func (r *Recorder) Journal() (calls []RecordedCall, clock []int64, pending *RecordedCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls = make([]RecordedCall, 0, len(r.log))
	for _, c := range r.log {
		if len(c.Response) == 0 {
			// Issued but never answered (the execution ended first): it did
			// not run to the end, and a replay must meet it as new.
			continue
		}
		calls = append(calls, *c)
	}
	if r.pending != nil {
		p := *r.pending
		pending = &p
	}
	return calls, append([]int64(nil), r.clock...), pending
}

// halt stops the program after the recorder halted it, as a limit does: a
// program must not catch its way past a suspension.
func (s *Session) haltProgram() {
	s.mu.Lock()
	stop := s.stop
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// SuspendedMessage is the trace's error of the call an execution suspended at.
const SuspendedMessage = "suspended: waiting for a decision"

// DivergedMessage starts the trace's error of a call a replay did not expect.
const DivergedMessage = "replay diverged"

// haltedResponse answers a call the recorder stopped: the program never
// sees it (the answer carries the interrupt), but the trace does.
func (s *Session) haltedResponse(tool string, args json.RawMessage, start time.Duration) []byte {
	message := SuspendedMessage
	if s.cfg.Recorder.Halted() == Diverged {
		message = DivergedMessage
	}
	s.haltProgram()
	trace := Call{Tool: tool, Args: args, Start: start, End: s.Since(), Error: message}
	s.mu.Lock()
	s.calls = append(s.calls, trace)
	s.mu.Unlock()
	return errorResponse(message)
}

// replayedCall answers a call from the journal and traces it as replayed.
// A decided call (the pending call answered by the decision) is traced as
// a call the host answered: not replayed.
func (s *Session) replayedCall(tool string, args json.RawMessage, start time.Duration, response []byte, replayed bool) []byte {
	s.Charge(len(response)) // the journal keeps it
	trace := Call{Tool: tool, Args: args, Start: start, End: s.Since(), Replayed: replayed, Error: responseError(response)}
	s.mu.Lock()
	s.calls = append(s.calls, trace)
	s.mu.Unlock()
	return response
}

// responseError is the error a response carries ("" for a value).
func responseError(response []byte) string {
	var decoded protocol.ToolResponse
	if json.Unmarshal(response, &decoded) != nil || decoded.Error == nil {
		return ""
	}
	return *decoded.Error
}

// replayedEarly is the handle of a call the program starts to await later
// (async code) that the journal answers: it is finished from the start.
func (s *Session) replayedEarly(tool *Tool, args json.RawMessage, response []byte, replayed bool) uint64 {
	s.Charge(len(response)) // the journal keeps it
	e := &early{tool: tool, args: args, done: make(chan struct{}), now: true, state: finished, response: response}
	key, _ := canonical(args)
	e.digest = sha256.Sum256(key)
	e.ctx, e.cancel = s.ctx, func() {}
	close(e.done)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	e.handle = s.next
	e.start, e.end = s.Since(), s.Since()
	e.replayed = replayed
	s.handles[e.handle] = e
	return e.handle
}

// AwaitOwnCalls waits for the calls the program started to await later
// (async code) that are still running, so that a suspended execution's
// journal holds the effect of every call that started: such a call is never
// cancelled by a suspension, only by the execution's deadline.
func (s *Session) AwaitOwnCalls() {
	s.mu.Lock()
	var running []*early
	for _, e := range s.handles {
		if e.now {
			running = append(running, e)
		}
	}
	s.mu.Unlock()
	for _, e := range running {
		select {
		case <-e.done:
		case <-s.ctx.Done():
			return
		}
	}
}

// clockResponse answers the guest's clock crossing of a recorded execution.
func (s *Session) clockResponse() []byte {
	now, ok := s.cfg.Recorder.Clock()
	if ok && !s.Charge(clockReadingCost) { // the journal keeps every reading
		return errorResponse(s.LimitExceeded())
	}
	if !ok {
		s.haltProgram()
		return errorResponse(DivergedMessage)
	}
	return valueResponse(json.RawMessage(strconv.FormatInt(now, 10)))
}

// clockReadingCost is what keeping one clock reading costs the budget.
const clockReadingCost = 8

// IsClockRequest says whether a call request is the guest's clock crossing.
func isClockRequest(tool string) bool { return tool == protocol.ClockTool }

// prepareRecorded decides a prepare under a recorder. A guess (PLM,
// prefix) starts early only while the execution runs live and for a call
// that would not suspend: a replay answers every call the program makes
// from the journal, so it starts nothing early. The program's own call
// started to be awaited later is issued here, as the record saw it: the
// journal answers it (a finished handle), it halts the program, or it
// starts (ok) with its ticket.
func (s *Session) prepareRecorded(rec *Recorder, tool *Tool, args json.RawMessage, now bool) (handle uint64, issued ticket, ok bool) {
	call := HookCall{Tool: tool, Args: args, Early: !now}
	if !now {
		return 0, ticket{}, rec.allowsEarly(call)
	}
	issued, how, answer := rec.issue(call)
	switch how {
	case replayed, decided:
		return s.replayedEarly(tool, args, answer, how == replayed), ticket{}, false
	case halted:
		s.haltedResponse(tool.Name, args, s.Since())
		return 0, ticket{}, false
	}
	return 0, issued, true
}

// allowsEarly says whether a guess may start early.
func (r *Recorder) allowsEarly(call HookCall) bool {
	r.mu.Lock()
	running := r.live && r.halt == Running
	r.mu.Unlock()
	return running && (r.cfg.Suspends == nil || !r.cfg.Suspends(call))
}

// claimRecorded delivers a guess the program claims, issuing it then (a
// guess is issued when the program reaches it, not when it starts).
func (s *Session) claimRecorded(rec *Recorder, e *early, raw []byte) []byte {
	start := s.Since()
	issued, how, answer := rec.issue(HookCall{Tool: e.tool, Args: e.args})
	switch how {
	case replayed, decided:
		s.settle(e, false)
		return s.replayedCall(e.tool.Name, e.args, start, answer, how == replayed)
	case halted:
		s.settle(e, false)
		return s.haltedResponse(e.tool.Name, e.args, start)
	}
	response, again := s.settle(e, true)
	if again {
		return s.callIssued(raw, false, false, &issued)
	}
	s.journal(issued, response)
	return response
}
