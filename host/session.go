package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// SessionOptions bound a session; zero fields take the defaults.
type SessionOptions struct {
	// IdleTimeout ends the session when no execution ran for this long
	// (default 10 minutes).
	IdleTimeout time.Duration
	// Lifetime ends the session this long after it started, an execution
	// running then included (default 1 hour).
	Lifetime time.Duration
	// MaxExecutions ends the session after this many executions (default 1000).
	MaxExecutions int
	// MemoryBytes ends a sandboxed session whose child holds more resident
	// memory than this after an execution (0: only the sandbox's
	// per-child address-space limit, SandboxOptions.MemoryBytes, applies).
	MemoryBytes uint64
}

// WithDefaults is o with each zero field set to the default a session
// takes (a service bounding what its clients ask for starts from these).
func (o SessionOptions) WithDefaults() SessionOptions { return o.withDefaults() }

func (o SessionOptions) withDefaults() SessionOptions {
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 10 * time.Minute
	}
	if o.Lifetime <= 0 {
		o.Lifetime = time.Hour
	}
	if o.MaxExecutions <= 0 {
		o.MaxExecutions = 1000
	}
	return o
}

// ErrSessionGone: the session ended (closed, idle, past its lifetime or
// its number of executions, over its memory, or its child died); its
// namespace is gone, and nothing runs in a fresh one in its place.
var ErrSessionGone = errors.New("spine: session is gone")

// Session is a sequence of executions sharing one module namespace: the
// variables, functions, classes and imports of one execution are there in
// the next, as in a notebook or a code agent's steps. Each execution has
// its own request (tools, PLM, limits), result, stdout and trace. In the
// sandbox a session has a child of its own, killed when the session ends;
// in process, a namespace of its own in the shared interpreter (no
// isolation between sessions beyond that, as for any in-process code).
// Executions of one session run one at a time. Safe for concurrent use.
type Session struct {
	e     *Engine
	id    string
	opts  SessionOptions
	child sessionChild

	run   sync.Mutex // one execution at a time
	count int        // executions run; under run

	mu    sync.Mutex
	gone  error
	idle  *time.Timer
	life  *time.Timer
	start time.Time
}

// sessionChild is where a session's executions run.
type sessionChild interface {
	Execute(s *bridge.Session, request []byte) (*bridge.Result, error)
	Entry(s *bridge.Session, name string, arg []byte) error // a stream's entries
	Alive() error                                           // nil while it serves the session
	Close(why error)                                        // kills it (an execution running included)
	PID() int                                               // the sandboxed child's pid; 0 in process
}

// Session starts a session. ctx bounds only the wait for a sandboxed child.
func (e *Engine) Session(ctx context.Context, opts SessionOptions) (*Session, error) {
	if e.closed.Load() {
		return nil, &ExecError{Kind: ErrClosed}
	}
	opts = opts.withDefaults()
	var id [12]byte
	rand.Read(id[:])
	s := &Session{e: e, id: "s-" + hex.EncodeToString(id[:]), opts: opts, start: time.Now()}
	ctx, cancel := context.WithTimeout(ctx, e.limits.Timeout)
	defer cancel()
	waiting := bridge.NewSession(ctx, bridge.Config{})
	defer waiting.Close()
	child, err := newSessionChild(e.guests, waiting, s.id)
	if err != nil {
		return nil, &ExecError{Kind: ErrSandbox, Message: "no child for the session: " + err.Error()}
	}
	s.child = child
	s.idle = time.AfterFunc(opts.IdleTimeout, func() { s.end(fmt.Errorf("idle for %v", opts.IdleTimeout)) })
	s.life = time.AfterFunc(opts.Lifetime, func() { s.end(fmt.Errorf("past its lifetime of %v", opts.Lifetime)) })
	e.mu.Lock()
	if e.sessions == nil {
		e.sessions = map[*Session]struct{}{}
	}
	e.sessions[s] = struct{}{}
	e.mu.Unlock()
	return s, nil
}

// ID names the session (unique per engine process).
func (s *Session) ID() string { return s.id }

// ChildPID is the process id of the session's sandboxed child (0 in process).
func (s *Session) ChildPID() int { return s.child.PID() }

// Err is nil while the session serves executions, and then why it ended
// (matching ErrSessionGone).
func (s *Session) Err() error {
	s.mu.Lock()
	gone := s.gone
	s.mu.Unlock()
	if gone != nil {
		return gone
	}
	if err := s.child.Alive(); err != nil {
		s.end(err)
		return s.Err()
	}
	return nil
}

// Close ends the session: its child is killed (an execution running is
// stopped), its namespace dropped. Closing twice does nothing.
func (s *Session) Close() error {
	s.end(errors.New("closed"))
	return nil
}

// end ends the session for a reason (the first one wins).
func (s *Session) end(why error) {
	s.mu.Lock()
	if s.gone != nil {
		s.mu.Unlock()
		return
	}
	if !errors.Is(why, ErrSessionGone) {
		why = fmt.Errorf("%w: %w", ErrSessionGone, why)
	}
	s.gone = why
	s.idle.Stop()
	s.life.Stop()
	s.mu.Unlock()
	s.child.Close(why)
	s.e.mu.Lock()
	delete(s.e.sessions, s)
	s.e.mu.Unlock()
}

// Execute runs one program in the session's namespace. The request is as
// for Engine.Execute (its own tools, PLM, limits, live output); the
// program sees what earlier executions defined, and `result` starts unset.
// A program that raises keeps what it defined before the error. An
// execution that kills the child (its deadline passed in a long C call, a
// crash, a memory bomb) ends the session: its response says how it ended,
// and every later Execute fails with ErrSessionGone.
func (s *Session) Execute(ctx context.Context, req Request) (*Response, error) {
	s.run.Lock()
	defer s.run.Unlock()
	if err := s.Err(); err != nil {
		return nil, goneError(err)
	}
	s.idle.Stop()
	s.e.running.Add(1)
	defer s.e.running.Done()
	req.session = s.id
	p, err := s.e.prepare(ctx, req)
	if err != nil {
		s.idle.Reset(s.opts.IdleTimeout)
		return nil, err
	}
	defer p.cancel()
	s.count++
	var result *bridge.Result
	runErr := p.session.Context().Err()
	if runErr == nil {
		result, runErr = s.child.Execute(p.session, p.request)
	}
	resp, err := s.e.finish(ctx, p, result, runErr)
	s.afterExecution()
	if errors.Is(runErr, bridge.ErrSessionGone) {
		// The child was gone before the execution began: nothing ran, and
		// the session is over (afterExecution saw it), whatever the program.
		if why := s.Err(); why != nil {
			return nil, goneError(why)
		}
		return nil, goneError(runErr)
	}
	return resp, err
}

// goneError is the error of an Execute or Stream on an ended session (why
// it ended, matching ErrSessionGone).
func goneError(why error) error {
	return &ExecError{Kind: ErrSessionGone, Message: strings.TrimPrefix(why.Error(), ErrSessionGone.Error()+": ")}
}

// afterExecution applies the session's bounds once an execution is over.
func (s *Session) afterExecution() {
	if err := s.child.Alive(); err != nil {
		s.end(err)
		return
	}
	if s.count >= s.opts.MaxExecutions {
		s.end(fmt.Errorf("ran its %d executions", s.opts.MaxExecutions))
		return
	}
	if limit := s.opts.MemoryBytes; limit > 0 {
		if rss := residentBytes(s.child.PID()); rss > limit {
			s.end(fmt.Errorf("its child holds %d bytes, over its memory limit of %d", rss, limit))
			return
		}
	}
	s.mu.Lock()
	if s.gone == nil {
		s.idle.Reset(s.opts.IdleTimeout)
	}
	s.mu.Unlock()
}

// residentBytes is a process's resident memory (0 when unknown).
func residentBytes(pid int) uint64 {
	if pid <= 0 {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(fields[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// closeSessions ends every open session (Engine.Close).
func (e *Engine) closeSessions() {
	e.mu.Lock()
	open := slices.Collect(maps.Keys(e.sessions))
	e.mu.Unlock()
	for _, s := range open {
		s.end(errors.New("the engine closed"))
	}
}

// Stream starts a streamed execution in the session's namespace (see
// Engine.Stream): calls start while the program arrives, and Finish runs
// it where the session's earlier executions ran. The session runs nothing
// else until the stream ends with Finish or Abort.
func (s *Session) Stream(ctx context.Context, req Request) (*Stream, error) {
	s.run.Lock()
	if err := s.Err(); err != nil {
		s.run.Unlock()
		return nil, goneError(err)
	}
	s.idle.Stop()
	req.session = s.id
	acquired := false
	stream, err := s.e.stream(ctx, req, func(p *prepared) (bridge.Guest, error) {
		acquired = true
		s.count++
		return &sessionStreamGuest{s: s, bound: p.session}, nil
	})
	if !acquired { // the guest that unlocks the session was never made
		s.idle.Reset(s.opts.IdleTimeout)
		s.run.Unlock()
	}
	return stream, err
}

// sessionStreamGuest is a stream's guest in a session: the session's child,
// bound to the stream's host session, held until the stream releases it.
type sessionStreamGuest struct {
	s     *Session
	bound *bridge.Session
}

func (g *sessionStreamGuest) Execute(request []byte) (*bridge.Result, error) {
	return g.s.child.Execute(g.bound, request)
}

func (g *sessionStreamGuest) Entry(name string, arg []byte) error {
	return g.s.child.Entry(g.bound, name, arg)
}

func (g *sessionStreamGuest) Release() {
	g.s.afterExecution()
	g.s.run.Unlock()
}
