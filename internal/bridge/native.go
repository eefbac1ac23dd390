package bridge

// NativeHandler serves the guest's "native" crossings of one execution (hot
// functions: hand over a function's source, learn where its compiled module
// is). It must validate everything it is given: the guest is untrusted.
type NativeHandler interface {
	Handle(request []byte) []byte
}

// Native answers a native crossing; without a handler (native code is off
// for this execution) the answer is an error the guest reports in its trace.
func (s *Session) Native(raw []byte) []byte {
	if s.cfg.Native == nil {
		return errorResponse("native functions are off for this execution")
	}
	return s.cfg.Native.Handle(raw)
}
