package serve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// RequestHeader carries a streamed request's members other than its source
// (the JSON form of host.Request without "source").
const RequestHeader = "Spine-Request"

// handleStream feeds the body to a host.Stream as it arrives, so tool calls
// start while the client is still sending the program. A body that fails
// (the client went away) or grows past MaxRequestBytes aborts the stream:
// every call it started is cancelled.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, s.engine.Stream, func(name, source string, resp *host.Response, err error) {
		s.answer(w, r, name, source, resp, err)
	})
}

// stream serves a streamed program: open starts it (on the engine, or in a
// session), answer answers how it ended. A body that fails is answered here.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, open func(context.Context, host.Request) (*host.Stream, error),
	answer func(name, source string, resp *host.Response, err error)) {
	var req host.Request
	if header := r.Header.Get(RequestHeader); header != "" {
		if err := json.Unmarshal([]byte(header), &req); err != nil {
			writeError(w, http.StatusBadRequest, RequestHeader+": "+err.Error())
			return
		}
		if req.Source != "" {
			writeError(w, http.StatusBadRequest, RequestHeader+": the program is the body, not \"source\"")
			return
		}
	}
	bodyRead := s.bodyDeadline(w)
	stream, err := open(r.Context(), req)
	if err != nil {
		answer(req.Name, "", nil, err)
		return
	}
	// The read deadline ends a read that waits; this ends the stream, and
	// frees its guest, at the deadline even while the handler is not reading.
	late := time.AfterFunc(s.opts.BodyTimeout, stream.Abort)
	body := http.MaxBytesReader(w, r.Body, s.opts.MaxRequestBytes)
	var source []byte
	buf := make([]byte, 32<<10)
	for {
		n, readErr := body.Read(buf)
		if n > 0 {
			source = append(source, buf[:n]...)
			if err := stream.Feed(buf[:n]); err != nil {
				if !late.Stop() {
					err = os.ErrDeadlineExceeded
				}
				stream.Abort()
				s.bodyFailed(w, err)
				return
			}
		}
		if errors.Is(readErr, io.EOF) {
			break
		}
		if readErr != nil {
			stream.Abort()
			s.bodyFailed(w, readErr)
			return
		}
	}
	if !late.Stop() {
		s.bodyFailed(w, os.ErrDeadlineExceeded)
		return
	}
	bodyRead()
	resp, err := stream.Finish()
	answer(req.Name, string(source), resp, err)
}
