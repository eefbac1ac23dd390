package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Sessions are the one stateful part of the service: a session's namespace
// lives in one sandboxed child of this replica, so its requests must reach
// this replica (affinity by the session id in the path). An ended session
// is remembered (why it ended) for a while, so its client is told "gone"
// (410) rather than "unknown" (404), and never given a fresh namespace.

// goneRemembered is how many ended sessions are remembered for their 410.
const goneRemembered = 1024

// sessionStore holds the open sessions, and why the recently ended ones ended.
type sessionStore struct {
	max int // open sessions at most; 0: sessions are refused

	mu        sync.Mutex
	open      map[string]*servedSession
	starting  int // sessions being made (counted against max)
	gone      map[string]string
	goneOrder []string // ids, oldest first
}

type servedSession struct {
	session    *host.Session
	opts       host.SessionOptions
	started    time.Time
	executions atomic.Int64
}

func newSessionStore(max int) *sessionStore {
	return &sessionStore{max: max, open: map[string]*servedSession{}, gone: map[string]string{}}
}

// reserve takes a place for a new session, false when every place is taken
// by an open session (ended ones are swept first: an idle timeout ends a
// session without a request).
func (st *sessionStore) reserve() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for id, s := range st.open {
		if err := s.session.Err(); err != nil {
			st.forget(id, err)
		}
	}
	if len(st.open)+st.starting >= st.max {
		return false
	}
	st.starting++
	return true
}

// add puts a made session in its reserved place (nil: it was not made).
func (st *sessionStore) add(s *servedSession) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.starting--
	if s != nil {
		st.open[s.session.ID()] = s
	}
}

// lookup finds an open session; else why it ended ("" with nil: unknown).
func (st *sessionStore) lookup(id string) (*servedSession, string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.open[id]; s != nil {
		if err := s.session.Err(); err != nil {
			st.forget(id, err)
			return nil, err.Error()
		}
		return s, ""
	}
	return nil, st.gone[id]
}

// ended records that a session ended (after its Close, or a failed run).
func (st *sessionStore) ended(id string, why error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.open[id] != nil {
		st.forget(id, why)
	}
}

// forget moves a session from the open ones to the remembered ended ones;
// under mu.
func (st *sessionStore) forget(id string, why error) {
	delete(st.open, id)
	if len(st.goneOrder) >= goneRemembered {
		delete(st.gone, st.goneOrder[0])
		st.goneOrder = st.goneOrder[1:]
	}
	st.gone[id] = why.Error()
	st.goneOrder = append(st.goneOrder, id)
}

// sessionOptionsJSON is the body of POST /v1/sessions: every member
// optional, durations in milliseconds as in a request's limits.
type sessionOptionsJSON struct {
	IdleTimeoutMs float64 `json:"idle_timeout_ms,omitempty"`
	LifetimeMs    float64 `json:"lifetime_ms,omitempty"`
	MaxExecutions int     `json:"max_executions,omitempty"`
	MemoryBytes   uint64  `json:"memory_bytes,omitempty"`
}

// sessionJSON describes an open session (POST /v1/sessions, GET).
type sessionJSON struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	Executions int64  `json:"executions"`
	Started    string `json:"started"`
	sessionOptionsJSON
}

func describe(s *servedSession) sessionJSON {
	return sessionJSON{ID: s.session.ID(), Status: "open", Executions: s.executions.Load(),
		Started: s.started.UTC().Format(time.RFC3339Nano),
		sessionOptionsJSON: sessionOptionsJSON{IdleTimeoutMs: millis(s.opts.IdleTimeout), LifetimeMs: millis(s.opts.Lifetime),
			MaxExecutions: s.opts.MaxExecutions, MemoryBytes: s.opts.MemoryBytes}}
}

// within is an ask within its bound: none (zero) or too much gets the bound.
func within[T int | time.Duration](ask, most T) T {
	if ask <= 0 || ask > most {
		return most
	}
	return ask
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// boundedOptions is what a client asked for, within the server's bounds: a
// zero or larger ask gets the bound (a memory bound of 0 bounds nothing).
func (s *Server) boundedOptions(asked sessionOptionsJSON) (host.SessionOptions, error) {
	if asked.IdleTimeoutMs < 0 || asked.LifetimeMs < 0 || asked.MaxExecutions < 0 {
		return host.SessionOptions{}, errors.New("session options must not be negative")
	}
	bound := s.opts.SessionLimits
	opts := host.SessionOptions{
		IdleTimeout:   within(time.Duration(asked.IdleTimeoutMs*float64(time.Millisecond)), bound.IdleTimeout),
		Lifetime:      within(time.Duration(asked.LifetimeMs*float64(time.Millisecond)), bound.Lifetime),
		MaxExecutions: within(asked.MaxExecutions, bound.MaxExecutions),
		MemoryBytes:   asked.MemoryBytes,
	}
	if bound.MemoryBytes > 0 && (opts.MemoryBytes == 0 || opts.MemoryBytes > bound.MemoryBytes) {
		opts.MemoryBytes = bound.MemoryBytes
	}
	return opts, nil
}

// handleNewSession starts a session: 201 with its description, 503 (with
// Retry-After) when this replica holds its most sessions or has no child
// for one (another replica may).
func (s *Server) handleNewSession(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	var asked sessionOptionsJSON
	if len(bytes.TrimSpace(body)) > 0 {
		decoder := json.NewDecoder(bytes.NewReader(body))
		decoder.DisallowUnknownFields()
		if err := decoder.Decode(&asked); err != nil {
			writeError(w, http.StatusBadRequest, "session options: "+err.Error())
			return
		}
	}
	opts, err := s.boundedOptions(asked)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !s.sessions.reserve() {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("this replica holds its most sessions (%d)", s.sessions.max))
		return
	}
	session, err := s.engine.Session(r.Context(), opts)
	if err != nil {
		s.sessions.add(nil)
		if errors.Is(err, host.ErrSandbox) || errors.Is(err, host.ErrClosed) {
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	served := &servedSession{session: session, opts: opts, started: time.Now()}
	s.sessions.add(served)
	w.Header().Set("Location", "/v1/sessions/"+session.ID())
	writeJSON(w, http.StatusCreated, describe(served))
}

// session finds the session of the path, or answers 410 (ended, with why)
// or 404 (unknown here) and returns nil.
func (s *Server) session(w http.ResponseWriter, r *http.Request) *servedSession {
	id := r.PathValue("id")
	found, why := s.sessions.lookup(id)
	switch {
	case found != nil:
		return found
	case why != "":
		writeError(w, http.StatusGone, why)
	default:
		writeError(w, http.StatusNotFound, "no such session here: a session lives on the replica that made it")
	}
	return nil
}

func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	if found := s.session(w, r); found != nil {
		writeJSON(w, http.StatusOK, describe(found))
	}
}

// handleCloseSession ends a session (its child is killed): 204.
func (s *Server) handleCloseSession(w http.ResponseWriter, r *http.Request) {
	found := s.session(w, r)
	if found == nil {
		return
	}
	found.session.Close()
	s.sessions.ended(found.session.ID(), found.session.Err())
	w.WriteHeader(http.StatusNoContent)
}

// handleSessionRun runs a request in a session's namespace, answered as
// /v1/run; a session that ended before it ran answers 410.
func (s *Server) handleSessionRun(w http.ResponseWriter, r *http.Request) {
	found := s.session(w, r)
	if found == nil {
		return
	}
	req, ok := s.readRequest(w, r)
	if !ok {
		return
	}
	resp, err := found.session.Execute(r.Context(), req)
	s.answerSession(w, r, found, req.Name, req.Source, resp, err)
}

// answerSession is answer, but a session that ended answers 410.
func (s *Server) answerSession(w http.ResponseWriter, r *http.Request, found *servedSession, name, source string, resp *host.Response, err error) {
	if resp == nil && errors.Is(err, host.ErrSessionGone) {
		s.sessions.ended(found.session.ID(), err)
		writeError(w, http.StatusGone, err.Error())
		return
	}
	if resp != nil {
		found.executions.Add(1)
	}
	s.answer(w, r, name, source, resp, err)
}

func (s *Server) handleSessionStream(w http.ResponseWriter, r *http.Request) {
	found := s.session(w, r)
	if found == nil {
		return
	}
	s.stream(w, r, found.session.Stream, func(name, source string, resp *host.Response, err error) {
		s.answerSession(w, r, found, name, source, resp, err)
	})
}
