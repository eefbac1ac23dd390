package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// handleRun runs the request in the body. The request's context is the
// execution's: a client that disconnects cancels it (its tools see their
// context end) and frees the guest at once.
func (s *Server) handleRun(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readRequest(w, r)
	if !ok {
		return
	}
	resp, err := s.engine.Execute(r.Context(), req)
	s.answer(w, r, req.Name, req.Source, resp, err)
}

// readRequest reads the JSON form of a request from the body; false: the
// body was refused, and that is answered.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request) (host.Request, bool) {
	body, ok := s.readBody(w, r)
	if !ok {
		return host.Request{}, false
	}
	var req host.Request
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return host.Request{}, false
	}
	return req, true
}

// readBody reads a body within MaxRequestBytes and BodyTimeout; false: it
// was refused, and that is answered.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	bodyRead := s.bodyDeadline(w)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxRequestBytes))
	if err != nil {
		s.bodyFailed(w, err)
		return nil, false
	}
	bodyRead()
	return body, true
}

// bodyDeadline bounds the reading of the request's body by BodyTimeout
// (the connection's read deadline, so a read that waits ends too). The
// returned function lifts it once the body is read: the server's watch for
// a client that disconnects during the execution reads the connection too,
// and must not take the deadline for a disconnect.
func (s *Server) bodyDeadline(w http.ResponseWriter) (bodyRead func()) {
	control := http.NewResponseController(w)
	_ = control.SetReadDeadline(time.Now().Add(s.opts.BodyTimeout))
	return func() { _ = control.SetReadDeadline(time.Time{}) }
}

// bodyFailed answers a request whose body could not be read: too large, too
// slow, or the client went away (then nobody reads the answer).
func (s *Server) bodyFailed(w http.ResponseWriter, err error) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d bytes", tooLarge.Limit))
		return
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		writeError(w, http.StatusRequestTimeout, fmt.Sprintf("the request's body did not arrive within %v", s.opts.BodyTimeout))
		return
	}
	writeError(w, http.StatusBadRequest, "reading the request: "+err.Error())
}

// answer writes an execution's outcome: its Response with 200 whatever the
// program did (the status says how it ended), or an error object when the
// request was refused (400), or no guest was free within the timeout or the
// engine is closing (503: another replica may serve it). A run that
// produced a Response is kept for its page; the Spine-Run header names it.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, name, source string, resp *host.Response, err error) {
	if resp == nil {
		switch {
		case errors.Is(err, host.ErrBadRequest):
			writeError(w, http.StatusBadRequest, err.Error())
		case errors.Is(err, host.ErrClosed), errors.Is(err, host.ErrTimeout):
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, err.Error())
		default:
			writeError(w, http.StatusInternalServerError, err.Error())
		}
		return
	}
	encoded, marshalErr := json.Marshal(resp)
	if marshalErr != nil {
		writeError(w, http.StatusInternalServerError, marshalErr.Error())
		return
	}
	if id, kept := s.runs.add(name, source, resp, len(encoded)); kept {
		w.Header().Set("Spine-Run", id)
		w.Header().Set("Link", "</v1/runs/"+id+`>; rel="trace"`)
	}
	if r.Context().Err() != nil {
		s.opts.Logger.Info("spine serve: the client went away; its execution was cancelled", "path", r.URL.Path, "status", resp.Status)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(append(encoded, '\n'))
}
