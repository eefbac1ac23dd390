package host

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// Stream receives a program chunk by chunk while it is being written (by a
// model, say). Complete statements are analysed as they arrive, and calls to
// speculative tools whose arguments are already known start at once; Finish
// runs the whole program with PLM, claiming those calls. The outcome is
// exactly that of executing the finished program.
//
// A Stream holds a guest (in the sandbox, a child process) from Engine.Stream
// until it ends, so it must end with Finish or Abort. One that is forgotten
// ends when its context does: its calls are cancelled and its guest is
// released at once, and Feed and Finish then return the context's error. A
// forgotten stream whose context never ends holds its guest until
// Engine.Close.
type Stream struct {
	engine  *Engine
	ctx     context.Context
	p       *prepared
	guest   bridge.Guest
	id      string
	chunks  chan []byte
	fed     chan struct{} // closed when the feeder has drained every chunk
	source  []byte        // everything fed, for the fallback execution
	pending []byte        // an incomplete UTF-8 sequence held for the next chunk
	arrived arrivals      // when each chunk came, for Response.Chunks
	broken  atomic.Bool   // the guest's stream state failed; Finish runs the source plainly

	mu       sync.Mutex
	finished bool
	endedBy  error // why the stream ended before Finish or Abort (its context)
	request  Request
	timeout  *time.Timer
	unwatch  func() bool // stops the watch on the context
}

var streamIDs atomic.Uint64

// ErrStreamDone is returned by Feed, Finish or Abort after Finish or Abort.
var ErrStreamDone = errors.New("spine: the stream is finished or aborted")

// Stream starts a streamed execution. req.Source is ignored (the program
// arrives through Feed); PLM is always on. The stream must end with Finish or
// Abort; cancelling ctx, or Abort, cancels every call the stream started and
// releases its guest. The engine's timeout bounds Finish, and also how long
// Stream waits for a guest when every sandboxed child is busy.
func (e *Engine) Stream(ctx context.Context, req Request) (*Stream, error) {
	return e.stream(ctx, req, e.acquireForStream)
}

// stream starts a stream whose guest acquire gives (an engine's, or a
// session's).
func (e *Engine) stream(ctx context.Context, req Request, acquire func(*prepared) (bridge.Guest, error)) (*Stream, error) {
	if reason := bridge.ReasonFor(ctx); reason != bridge.NotInterrupted {
		_, err := e.notStarted(reason)
		return nil, err
	}
	if req.Program != nil {
		return nil, &ExecError{Kind: ErrBadRequest, Message: "a stream's program arrives through Feed: Request.Program is for Execute"}
	}
	e.running.Add(1)
	req.Source = ""
	p, err := e.prepareStream(ctx, req)
	if err != nil {
		e.running.Done()
		return nil, err
	}
	g, err := acquire(p)
	if err != nil {
		_, err = e.acquireFailed(ctx, p, err)
		p.cancel()
		e.running.Done()
		return nil, err
	}
	s := &Stream{engine: e, ctx: ctx, p: p, guest: g, id: "s" + strconv.FormatUint(streamIDs.Add(1), 10),
		chunks: make(chan []byte, 1024), fed: make(chan struct{}), request: req,
		unwatch: func() bool { return false }}
	begin, _ := json.Marshal(protocol.PrefixBegin{Stream: s.id, Inputs: p.inputs, Manifest: p.manifest,
		Budget: prefixBudget(p.limits.Timeout)})
	p.session.SetStreaming(true)
	e.mu.Lock()
	e.streams[s] = struct{}{}
	e.mu.Unlock()
	s.mu.Lock()
	if !s.finished { // Engine.Close may have aborted it already
		s.unwatch = context.AfterFunc(ctx, s.contextEnded)
	}
	s.mu.Unlock()
	go s.feed(begin)
	return s, nil
}

// acquireForStream takes the stream's guest, waiting at most the engine's
// timeout: a stream has no deadline of its own until Finish, and Stream must
// not block without bound while every sandboxed child is busy.
func (e *Engine) acquireForStream(p *prepared) (bridge.Guest, error) {
	bound := time.AfterFunc(p.limits.Timeout, func() { p.cancelCause(context.DeadlineExceeded) })
	g, err := e.acquire(p)
	if !bound.Stop() && err == nil {
		// The bound passed just as the guest came: the stream's context is
		// already over.
		g.Release()
		return nil, &ExecError{Kind: ErrTimeout, Message: "no sandboxed child became free within the engine's timeout"}
	}
	return g, err
}

// contextEnded ends a stream whose context ended before Finish or Abort: a
// forgotten stream must not hold its guest (a sandboxed child) for ever.
func (s *Stream) contextEnded() {
	if errors.Is(s.ctx.Err(), context.DeadlineExceeded) {
		s.abandon(&ExecError{Kind: ErrTimeout, Message: "the stream's context expired before Finish"})
		return
	}
	s.abandon(&ExecError{Kind: context.Canceled, Message: "the stream's context was cancelled before Finish"})
}

// ended is what Feed and Finish return once the stream is over.
func (s *Stream) ended() error {
	if s.endedBy != nil {
		return s.endedBy
	}
	return ErrStreamDone
}

// feed runs on its own goroutine, so Feed never waits for the guest.
func (s *Stream) feed(begin []byte) {
	defer close(s.fed)
	if err := s.guest.Entry(protocol.EntryPrefixBegin, begin); err != nil {
		s.broken.Store(true)
	}
	for chunk := range s.chunks {
		if s.broken.Load() || s.p.session.Context().Err() != nil {
			continue // drain: the final execution still has the whole source
		}
		arg, _ := json.Marshal(protocol.PrefixFeed{Stream: s.id, Chunk: string(chunk)})
		if err := s.guest.Entry(protocol.EntryPrefixFeed, arg); err != nil {
			s.broken.Store(true)
		}
	}
}

// Feed hands the stream its next chunk of source; it returns at once. A chunk
// may end inside a statement, a string or a UTF-8 character.
func (s *Stream) Feed(chunk []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return s.ended()
	}
	if reason := bridge.ReasonFor(s.ctx); reason != bridge.NotInterrupted {
		_, err := interrupted(&Response{}, reason, "")
		return err
	}
	s.source = append(s.source, chunk...)
	s.arrived.add(s.p.session.Since(), len(chunk))
	data := append(s.pending, chunk...)
	cut := completeUTF8(data)
	s.pending = append([]byte(nil), data[cut:]...)
	if cut > 0 {
		s.chunks <- append([]byte(nil), data[:cut]...)
	}
	return nil
}

// completeUTF8 is the length of the longest prefix of b that does not end
// inside a UTF-8 sequence (an invalid sequence counts as complete).
func completeUTF8(b []byte) int {
	for back := 1; back <= utf8.UTFMax && back <= len(b); back++ {
		c := b[len(b)-back]
		if c < 0x80 {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-back:]) {
				return len(b)
			}
			return len(b) - back
		}
	}
	return len(b)
}

// Finish waits for the analysis of every chunk, then runs the whole program
// with PLM, claiming the calls the stream started. The response and error are
// those of Execute. After Abort it returns ErrStreamDone; after the stream's
// context ended, the context's error.
func (s *Stream) Finish() (*Response, error) {
	s.mu.Lock()
	if s.finished {
		err := s.ended()
		s.mu.Unlock()
		return nil, err
	}
	s.finished = true
	s.unwatch()
	s.forget()
	if len(s.pending) > 0 {
		s.chunks <- s.pending
		s.pending = nil
	}
	close(s.chunks)
	s.mu.Unlock()
	defer s.engine.running.Done()
	defer s.p.cancel()

	// The clock starts now, and the analysis of chunks still queued or
	// running counts against it: at the deadline the feeder skips what is
	// queued and the guest stops the chunk it is analysing.
	s.p.start = time.Now()
	s.p.session.SetDeadline(s.p.start.Add(s.p.limits.Timeout))
	stop := time.AfterFunc(s.p.limits.Timeout, func() { s.p.cancelCause(context.DeadlineExceeded) })
	defer stop.Stop()
	<-s.fed
	s.p.session.SetStreaming(false)
	if err := s.p.session.Context().Err(); err != nil {
		// The deadline (or the caller) ended the stream during its analysis:
		// nothing more runs.
		s.release(false)
		return s.withChunks(s.engine.finish(s.ctx, s.p, nil, context.Cause(s.p.session.Context())))
	}
	claims := !s.broken.Load()
	result, runErr := s.guest.Execute(s.finalRequest())
	s.release(claims && runErr == nil)
	return s.withChunks(s.engine.finish(s.ctx, s.p, result, runErr))
}

// withChunks adds the stream's arrivals to its response (Feed no longer
// runs: the stream is finished).
func (s *Stream) withChunks(resp *Response, err error) (*Response, error) {
	if resp != nil {
		resp.Chunks = s.arrived
	}
	return resp, err
}

// release gives the guest back. Unless the final execution claimed the
// stream's state (it drops it as it starts), the guest is told to forget it
// first: the in-process interpreter outlives the stream and serves every
// execution. That can wait for the interpreter, so it happens after the
// caller has its answer (Engine.Close waits for it).
func (s *Stream) release(claimed bool) {
	if claimed {
		s.guest.Release()
		return
	}
	s.engine.running.Add(1)
	go func() {
		defer s.engine.running.Done()
		_ = s.guest.Entry(protocol.EntryPrefixAbort, []byte(s.id))
		s.guest.Release()
	}()
}

// finalRequest claims the stream's state, or, if the guest lost it, runs the
// source received with PLM (the same program, without the head start).
func (s *Stream) finalRequest() []byte {
	if !s.broken.Load() {
		encoded, _ := json.Marshal(protocol.ExecuteRequest{Prefix: true, Stream: s.id, Limits: s.p.limits.guest(), Native: s.p.hot,
			Name: s.request.Name, Live: s.request.live(), Determinism: s.p.determinism, Session: s.p.sessionID})
		return encoded
	}
	req := s.request
	req.Source, req.PLM = string(s.source), true
	req.determinism, req.session = s.p.determinism, s.p.sessionID
	encoded, _ := s.engine.encodeRequest(req, s.p.limits, s.p.inputs, s.p.manifest, s.p.hot)
	return encoded
}

func (s *Stream) forget() {
	s.engine.mu.Lock()
	delete(s.engine.streams, s)
	s.engine.mu.Unlock()
}

// Started is how many tool calls the stream has started early so far.
func (s *Stream) Started() int { return s.p.session.Prepared() }

// Calls is the trace of the calls that have ended so far (after Abort: every
// call the stream started, each cancelled).
func (s *Stream) Calls() []Call { return convertCalls(s.p.session.Calls()) }

// Abort abandons the stream: every call it started is cancelled at once and
// the guest forgets its state and is released.
func (s *Stream) Abort() { s.abandon(nil) }

// abandon ends the stream without running it; cause is why (nil: Abort).
func (s *Stream) abandon(cause error) {
	s.mu.Lock()
	if s.finished {
		s.mu.Unlock()
		return
	}
	s.finished, s.endedBy = true, cause
	s.unwatch()
	s.forget()
	s.broken.Store(true) // the feeder skips what is still queued
	close(s.chunks)
	s.mu.Unlock()
	s.p.session.CancelEarly()
	// Ending the stream's context stops the chunk being analysed (the guest
	// is interrupted, a sandboxed child killed): an abandoned stream's
	// analysis must not keep the guest busy.
	s.p.cancel()
	go func() {
		defer s.engine.running.Done()
		<-s.fed
		s.release(false)
		s.p.session.Close()
		s.engine.telemetry.executionEnded(s.p.telemetry, nil, cause)
	}()
}

// prefixBudget bounds the analysis of a stream by the execution's own
// timeout: all of it together may take no more wall time than the program
// itself may run (each statement keeps the guest's own, smaller budget).
// The analysis is an optimisation: past its budget nothing more starts
// early, and the program runs as written.
func prefixBudget(timeout time.Duration) *protocol.PrefixBudget {
	return &protocol.PrefixBudget{StreamMs: max(timeout.Milliseconds(), 1)}
}
