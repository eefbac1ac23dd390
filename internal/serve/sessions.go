package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Sessions are the one stateful part of the service: a session's namespace
// lives in one sandboxed child of this replica, so its requests must reach
// this replica (affinity by the session id in the path). An ended session
// is remembered (why it ended) for a while, so its client is told "gone"
// (410) rather than "unknown" (404), and never given a fresh namespace.

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
