package bridge

import (
	"context"
	"crypto/sha256"
	"sync/atomic"
	"time"
)

// earlyState is where a prepared call is; guarded by Session.mu.
type earlyState int

const (
	queued   earlyState = iota // waiting for a worker slot
	running                    // its tool runs on a worker
	finished                   // its response is ready
	taken                      // the program reached it before it started: it ran as a plain call
)

// early is a call started on a worker and claimed later by a resolve: one
// started before the program reached it (PLM or prefix), or one the program
// started itself to await later (`now`: a tool called in async code). It
// keeps the arguments once, as the guest sent them; a resolve matches the
// digest of their canonical form.
type early struct {
	handle    uint64
	tool      *Tool
	args      []byte
	digest    [sha256.Size]byte
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled atomic.Int64  // UnixNano of the session's own cancel of this call; 0 before
	done      chan struct{} // closed when the worker is done with the call
	streaming bool
	now       bool   // the program's own call, not a guess
	refusal   string // a call hook refused it (a `now` call only): its answer is the refusal
	recorded  ticket // a `now` call under a recorder: where its response is journaled
	replayed  bool   // answered from a journal: its tool never runs
	cost      int    // bytes charged while it is pending (its bookkeeping and its trace entry)

	// Guarded by Session.mu.
	state     earlyState
	abandoned bool // given up on past Grace: the worker drops its outcome
	stale     bool // cancelled by an effectful call that may change what it read
	evicted   bool // finished, but its response did not fit: a claim runs it again
	response  []byte
	toolErr   string
	start     time.Duration
	end       time.Duration
}

func (e *early) trace() Call {
	return Call{Tool: e.tool.Name, Args: e.args, Start: e.start, End: e.end, Error: e.toolErr,
		Early: !e.now, Stream: e.streaming, Stale: e.stale, Replayed: e.replayed}
}

// stop cancels the call, noting when (the start of its Grace).
func (e *early) stop() {
	e.cancelled.CompareAndSwap(0, time.Now().UnixNano())
	e.cancel()
}

// SetStreaming marks calls prepared from now on as started during a stream.
func (s *Session) SetStreaming(on bool) {
	s.mu.Lock()
	s.streaming = on
	s.mu.Unlock()
}

// Prepare starts a request on a worker and returns its handle, or 0 when it
// does not start early: the context has ended, the request is malformed, its
// tool is unknown or not speculative (an effectful tool runs exactly when the
// program runs it), the schema refuses its arguments, the memory budget has
// no room for it, or the tool call limit is spent. The program's own call
// then runs normally. Every prepare counts against the tool call limit, and
// one past it stops the program: prepared calls are tool calls.
//
// A request marked `now` is the program's own call, started to be awaited
// later (a tool called in async code): any tool may start so, effectful
// ones included (the program chose to run it now), it takes no worker slot
// (the slots bound speculation, not the program's own calls), and its trace
// entry is not early. Refused (0), its resolve runs it as a plain call,
// which reports why.
func (s *Session) Prepare(raw []byte) uint64 {
	if s.ctx.Err() != nil {
		return 0
	}
	if s.countCall() != "" {
		return 0
	}
	req, err := parseRequest(raw, s.maxArgBytes())
	if err != nil {
		return 0
	}
	tool := s.cfg.Tools[req.Tool]
	if tool == nil || !(tool.Speculative || req.Now) || tool.validate(req.Args) != nil {
		return 0
	}
	key, err := canonical(req.Args)
	if err != nil {
		return 0
	}
	var recorded ticket
	if rec := s.cfg.Recorder; rec != nil {
		handle, issued, ok := s.prepareRecorded(rec, tool, req.Args, req.Now)
		if !ok {
			return handle
		}
		recorded = issued
	}
	refusal, admitted := s.admitPrepared(tool, req.Args, req.Now)
	if !admitted {
		return 0
	}
	e := &early{tool: tool, args: req.Args, digest: sha256.Sum256(key), done: make(chan struct{}),
		now: req.Now, refusal: refusal, cost: earlyOverhead + traceCost(tool.Name, req.Args, ""), recorded: recorded}
	s.mu.Lock()
	fits := s.fitLocked(e.cost) // speculation never evicts, nor stops the program
	s.mu.Unlock()
	if !fits {
		return 0
	}
	if e.now && refusal == "" {
		s.invalidate(tool) // the program's own effect happens now, as in call
	}
	e.ctx, e.cancel = context.WithCancel(s.ctx)
	// Take a worker slot now if one is free, so that a call prepared on an
	// idle engine is running before the program can reach it.
	e.state = queued
	if s.cfg.Workers == nil || e.now {
		e.state = running
	} else {
		select {
		case s.cfg.Workers <- struct{}{}:
			e.state = running
		default:
		}
	}
	s.mu.Lock()
	s.next++
	e.handle = s.next
	if !e.now {
		s.prepared++
		e.streaming = s.streaming
	}
	if e.state == running {
		e.start = s.Since()
	}
	s.handles[e.handle] = e
	if len(s.order) > 2*len(s.handles)+64 {
		s.compactOrderLocked()
	}
	s.order = append(s.order, e)
	s.mu.Unlock()
	go s.work(e)
	return e.handle
}

// work runs a prepared call. Its worker slot is given back only when the
// tool has returned, even if the session abandoned it long before.
func (s *Session) work(e *early) {
	defer s.notify() // after done is closed: a Wait woken by it sees the call done
	defer close(e.done)
	s.mu.Lock()
	held := e.state == running && s.cfg.Workers != nil && !e.now // Prepare took a slot
	waiting := e.state == queued
	s.mu.Unlock()
	if waiting {
		select {
		case s.cfg.Workers <- struct{}{}:
			held = true
		case <-e.ctx.Done():
		}
	}
	if held {
		defer func() { <-s.cfg.Workers }()
	}
	s.mu.Lock()
	if e.state == taken { // the program reached it before it started
		s.mu.Unlock()
		return
	}
	err := e.ctx.Err()
	if err == nil {
		err = s.done()
	}
	if err != nil { // no tool starts once its context is done
		s.mu.Unlock()
		s.finishEarly(e, errorResponse(err.Error()), err.Error())
		return
	}
	if e.state == queued {
		e.state, e.start = running, s.Since()
	}
	s.mu.Unlock()
	if e.refusal != "" { // a call hook refused the program's own call
		s.finishEarly(e, deniedResponse(e.refusal), DeniedPrefix+e.refusal)
		return
	}
	response, toolErr := s.run(e.ctx, earlyCall(e))
	s.finishEarly(e, response, toolErr)
}

// finishEarly stores a prepared call's outcome, charging its response while
// nobody has claimed it; an abandoned call's outcome is dropped, and so is a
// response that does not fit (evicted: a claim runs the call again).
func (s *Session) finishEarly(e *early, response []byte, toolErr string) {
	s.mu.Lock()
	if e.state == taken {
		s.mu.Unlock()
		return
	}
	if e.abandoned {
		s.mu.Unlock()
		s.abandoned().Add(-1)
		return
	}
	var stop func()
	if e.now {
		// The program's own call (async code): it ran, so its response is
		// kept whatever it costs, never dropped to be run again (an effect
		// happens once). Past the budget the program stops with `limit`.
		_, stop = s.chargeLocked(len(response) + len(toolErr))
	} else if !s.fitLocked(len(response) + len(toolErr)) {
		e.evicted, response, toolErr = true, nil, EvictedError
		s.used += len(toolErr) // for its trace entry
	}
	e.response, e.toolErr, e.end, e.state = response, toolErr, s.Since(), finished
	s.mu.Unlock()
	if e.now {
		s.journal(e.recorded, response)
	}
	if stop != nil {
		stop()
	}
}

// Resolve delivers the prepared call `handle` for the request the program is
// making now. The handle must belong to this session and the tool name and
// canonical arguments must equal the request; otherwise the prepared call is
// cancelled and the request runs normally — a wrong guess costs time, never
// correctness. A call still waiting for a worker slot runs now, as a plain
// call: the program never waits for another execution's workers.
func (s *Session) Resolve(handle uint64, raw []byte) []byte {
	s.mu.Lock()
	e := s.handles[handle]
	delete(s.handles, handle)
	s.mu.Unlock()
	if e == nil {
		return s.Call(raw)
	}
	req, err := parseRequest(raw, s.maxArgBytes())
	var key []byte
	if err == nil {
		key, err = canonical(req.Args)
	}
	if err != nil || req.Tool != e.tool.Name || sha256.Sum256(key) != e.digest {
		s.settle(e, false)
		return s.call(raw, true, true)
	}
	s.mu.Lock()
	if e.state == queued {
		e.state = taken
		s.used -= e.cost
		s.mu.Unlock()
		e.stop()
		return s.call(raw, false, false)
	}
	s.mu.Unlock()
	if rec := s.cfg.Recorder; rec != nil && !e.now {
		return s.claimRecorded(rec, e, raw)
	}
	if response, again := s.settle(e, true); !again {
		return response
	}
	return s.call(raw, false, false)
}

// settle ends a prepared call that left the handle table: it waits for the
// worker (at most Grace past the end of the call's context; a call not
// claimed is cancelled first), traces it, and gives back what it was
// charged beyond its trace entry. It returns the response when claimed, or
// again when the claimed call's response was evicted and the program must
// run it now (its charge is given back: that run is traced on its own).
func (s *Session) settle(e *early, claimed bool) (response []byte, again bool) {
	if !claimed {
		e.stop()
	}
	since := func() time.Time {
		t := s.endedAt()
		if ns := e.cancelled.Load(); ns != 0 && (t.IsZero() || ns < t.UnixNano()) {
			t = time.Unix(0, ns)
		}
		return t
	}
	done := waitBounded(e.ctx, e.done, since)
	e.stop()
	s.mu.Lock()
	if e.state == taken {
		s.mu.Unlock()
		return nil, false
	}
	if claimed && e.evicted {
		s.used -= e.cost + len(e.toolErr)
		s.mu.Unlock()
		return nil, true
	}
	if !done && e.state != finished {
		// Abandoned: the worker drops the outcome (finishEarly) when the
		// tool finally returns, and only then frees its slot.
		e.abandoned = true
		s.abandoned().Add(1)
		e.response, e.toolErr, e.end = errorResponse(AbandonedError), AbandonedError, s.Since()
		s.used += len(AbandonedError) - earlyOverhead
	} else {
		// finishEarly charged the response and the error: the error stays
		// in the trace, the response leaves with the caller.
		s.used -= earlyOverhead + len(e.response)
	}
	call := e.trace()
	call.Claimed = claimed && !e.abandoned && !e.now
	s.calls = append(s.calls, call)
	response = e.response
	e.response = nil // it leaves with the caller; s.order may still point at e
	s.mu.Unlock()
	s.after(earlyCall(e), call, response, e.refusal != "")
	return response, false
}

// compactOrderLocked drops the settled calls from s.order.
func (s *Session) compactOrderLocked() {
	kept := s.order[:0]
	for _, e := range s.order {
		if s.handles[e.handle] == e {
			kept = append(kept, e)
		}
	}
	clear(s.order[len(kept):])
	s.order = kept
}

// Cancel drops a prepared call nobody will claim (e.g. an aborted stream).
func (s *Session) Cancel(handle uint64) {
	s.mu.Lock()
	e := s.handles[handle]
	delete(s.handles, handle)
	s.mu.Unlock()
	if e != nil {
		s.settle(e, false)
	}
}

// CancelEarly cancels every prepared call that has not been claimed, without
// ending the session (an aborted stream); they stay in the trace.
func (s *Session) CancelEarly() {
	s.mu.Lock()
	pending := make([]*early, 0, len(s.handles))
	for handle, e := range s.handles {
		delete(s.handles, handle)
		pending = append(pending, e)
	}
	s.mu.Unlock()
	for _, e := range pending {
		e.stop()
	}
	for _, e := range pending {
		s.settle(e, false)
	}
}

// Prepared is how many calls were started early so far.
func (s *Session) Prepared() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prepared
}
