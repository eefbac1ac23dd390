package bridge

import (
	"encoding/json"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// maxWait bounds one wait whatever the guest asks; the loop simply waits again.
const maxWait = time.Hour

// Wait answers an async program's event loop with nothing to run
// (protocol.WaitRequest) with a protocol.WaitAnswer: the listed handles whose
// calls are done, once at least one is, `ms` milliseconds have passed, or the
// execution's context ended (the transport then interrupts the program). A
// handle this session does not hold (resolved already, or never its own) is
// reported done: its resolve answers for it.
func (s *Session) Wait(raw []byte) []byte {
	var req protocol.WaitRequest
	if len(raw) > s.maxArgBytes() || json.Unmarshal(raw, &req) != nil || req.Ms < 0 {
		return errorResponse("malformed wait request")
	}
	timeout := maxWait
	if ms := time.Duration(req.Ms * float64(time.Millisecond)); ms < timeout {
		timeout = ms
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		done := s.doneAmong(req.Handles)
		changed := s.changed
		s.mu.Unlock()
		if len(done) > 0 {
			return doneResponse(done)
		}
		select {
		case <-changed:
		case <-timer.C:
			return doneResponse(nil)
		case <-s.ctx.Done():
			return doneResponse(nil)
		}
	}
}

// doneAmong lists the handles whose calls are done; s.mu is held.
func (s *Session) doneAmong(handles []uint64) []uint64 {
	var done []uint64
	for _, h := range handles {
		e := s.handles[h]
		if e == nil {
			done = append(done, h)
			continue
		}
		select {
		case <-e.done:
			done = append(done, h)
		default:
		}
	}
	return done
}

// notify wakes every Wait: a started call has just finished.
func (s *Session) notify() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func doneResponse(done []uint64) []byte {
	if done == nil {
		done = []uint64{}
	}
	encoded, _ := json.Marshal(protocol.WaitAnswer{Done: done})
	return encoded
}
