package bridge

import "os"

// NativeHandler serves the guest's "native" crossings of one execution (hot
// functions: hand over a function's source, learn where its compiled module
// is). It must validate everything it is given: the guest is untrusted.
type NativeHandler interface {
	// Handle answers with each ready module's path (a guest in this process
	// loads it from the cache).
	Handle(request []byte) []byte
	// HandleModules answers with each ready module as one of the files
	// returned, never its path: a sandboxed child sees nothing of the cache
	// and receives the files with the answer. The caller closes them.
	HandleModules(request []byte) ([]byte, []*os.File)
}

// Native answers a native crossing; without a handler (native code is off
// for this execution) the answer is an error the guest reports in its trace.
func (s *Session) Native(raw []byte) []byte {
	if s.cfg.Native == nil {
		return errorResponse("native functions are off for this execution")
	}
	return s.cfg.Native.Handle(raw)
}

// NativeModules answers a native crossing for a guest that receives its
// modules as files (see NativeHandler.HandleModules).
func (s *Session) NativeModules(raw []byte) ([]byte, []*os.File) {
	if s.cfg.Native == nil {
		return errorResponse("native functions are off for this execution"), nil
	}
	return s.cfg.Native.HandleModules(raw)
}
