package bridge

import "github.com/spine-sandbox/spine/internal/protocol"

// Answer serves one crossing of the guest; every transport answers through
// it, so a call, prepare, resolve or native request means the same whichever
// carried it. It returns the number the guest receives (a handle for a
// prepare, else the response's length; negative: the host failed), the
// response, and the interrupt the transport must deliver with the answer:
// LimitExceeded once the execution exceeded a host limit (a program must not
// catch its way past one), and, for a crossing that waited on the host (a
// tool, the compiler), why the execution's context ended, so the program
// meets its deadline rather than the error of the wait the deadline cut short.
func (s *Session) Answer(c protocol.Crossing, handle uint64, request []byte) (int64, []byte, Reason) {
	var number int64
	var response []byte
	switch c {
	case protocol.CrossCall:
		response = s.Call(request)
	case protocol.CrossPrepare:
		number = int64(s.Prepare(request))
	case protocol.CrossResolve:
		response = s.Resolve(handle, request)
	case protocol.CrossNative:
		response = s.Native(request)
	case protocol.CrossFetch:
		response = s.Fetch()
	default:
		return -1, nil, NotInterrupted
	}
	if c.Answered() {
		number = int64(len(response))
	}
	return number, response, s.interruptWith(c)
}

// AnswerOversized serves a call, prepare or resolve whose request of `size`
// bytes the transport skipped unread, being over MaxRequestBytes: it is
// refused like any request over the limit (RefuseOversized).
func (s *Session) AnswerOversized(c protocol.Crossing, size int) (int64, []byte, Reason) {
	response := s.RefuseOversized(size, c == protocol.CrossPrepare)
	return int64(len(response)), response, s.interruptWith(c)
}

func (s *Session) interruptWith(c protocol.Crossing) Reason {
	if s.LimitExceeded() != "" {
		return LimitExceeded
	}
	if c.WaitsOnHost() {
		return s.Ended()
	}
	return NotInterrupted
}
