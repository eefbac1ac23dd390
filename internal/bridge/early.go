package bridge

import (
	"bytes"
	"context"
	"time"
)

// early is a call started before the program reached it (PLM or prefix):
// its handle, what was asked, and, once done, the response.
type early struct {
	tool      string
	args      []byte // canonical
	rawArgs   []byte
	cancel    context.CancelFunc
	done      chan struct{}
	response  []byte
	toolErr   string
	start     time.Duration
	end       time.Duration
	streaming bool
}

func (e *early) trace() Call {
	return Call{Tool: e.tool, Args: e.rawArgs, Start: e.start, End: e.end, Error: e.toolErr,
		Early: true, Stream: e.streaming}
}

// SetStreaming marks calls prepared from now on as started during a stream.
func (s *Session) SetStreaming(on bool) {
	s.mu.Lock()
	s.streaming = on
	s.mu.Unlock()
}

// Prepare starts a request on a worker and returns its handle, or 0 when it
// must not start early: unknown or non-speculative tool (an effectful tool runs
// exactly when the program runs it), malformed request, invalid arguments, or
// no budget left. The program's own call then runs normally.
func (s *Session) Prepare(raw []byte) uint64 {
	req, err := parseRequest(raw, s.maxArgBytes())
	if err != nil {
		return 0
	}
	tool := s.cfg.Tools[req.Tool]
	if tool == nil || !tool.Speculative || tool.validate(req.Args) != nil {
		return 0
	}
	key, err := canonical(req.Args)
	if err != nil {
		return 0
	}
	if _, message := s.admit(req, false); message != "" {
		return 0
	}
	ctx, cancel := context.WithCancel(s.ctx)
	e := &early{tool: req.Tool, args: key, rawArgs: req.Args, cancel: cancel, done: make(chan struct{})}
	s.mu.Lock()
	s.next++
	handle := s.next
	s.prepared++
	s.handles[handle] = e
	e.streaming = s.streaming
	s.mu.Unlock()

	s.workers.Add(1)
	go s.work(ctx, tool, e)
	return handle
}

func (s *Session) work(ctx context.Context, tool *Tool, e *early) {
	defer s.workers.Done()
	defer close(e.done)
	if s.cfg.Workers != nil {
		select {
		case s.cfg.Workers <- struct{}{}:
			defer func() { <-s.cfg.Workers }()
		case <-ctx.Done():
			e.response = errorResponse(ctx.Err().Error())
			e.toolErr = ctx.Err().Error()
			return
		}
	}
	e.start = s.Since()
	// Cancelled, or the execution ended, while it waited for a worker.
	err := ctx.Err()
	if err == nil {
		err = s.done()
	}
	if err != nil {
		e.response, e.toolErr = errorResponse(err.Error()), err.Error()
		e.end = e.start
		return
	}
	e.response, e.toolErr = s.run(ctx, tool, e.args)
	e.end = s.Since()
}

// Resolve delivers the prepared call `handle` for the request the program is
// making now. The handle must belong to this session and the tool name and
// canonical arguments must equal the request; otherwise the prepared call is
// cancelled and the request runs normally — a wrong guess costs time, never
// correctness.
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
	if err != nil || req.Tool != e.tool || !bytes.Equal(key, e.args) {
		e.cancel()
		<-e.done
		s.record(e.trace())
		start := s.Since()
		response := s.Call(raw)
		s.markMismatch(start)
		return response
	}
	<-e.done
	e.cancel()
	call := e.trace()
	call.Claimed = true
	s.record(call)
	return e.response
}

// markMismatch flags the normal call made at `start` as the rerun of a mismatch.
func (s *Session) markMismatch(start time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.calls) - 1; i >= 0; i-- {
		if s.calls[i].Start >= start && !s.calls[i].Early {
			s.calls[i].Mismatch = true
			return
		}
	}
}

// Cancel drops a prepared call nobody will claim (e.g. an aborted stream).
func (s *Session) Cancel(handle uint64) {
	s.mu.Lock()
	e := s.handles[handle]
	delete(s.handles, handle)
	s.mu.Unlock()
	if e != nil {
		e.cancel()
		<-e.done
		s.record(e.trace())
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
		e.cancel()
		<-e.done
		s.record(e.trace())
	}
}

// Prepared is how many calls were started early so far.
func (s *Session) Prepared() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prepared
}
