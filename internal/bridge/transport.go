package bridge

// Transport is where guests run: in this process (bridge/inproc) or in
// sandboxed guest processes (the wire transport). The host drives every
// execution through it and never sees which one it is: only the one
// function that makes the transport names it.
type Transport interface {
	// Acquire binds a guest to the session for one execution, or for one
	// stream (prefix_begin, prefix_feed..., then the final execute), which
	// must all reach the same guest. Release gives it back.
	Acquire(s *Session) (Guest, error)
	// Level names the isolation this transport gives ("inproc", "sandbox").
	Level() string
	// Describe says what isolates the guests, for a caller's logs
	// ("sandbox: seccomp, namespaces, landlock ABI 7").
	Describe() string
	// Close stops the transport once no execution runs.
	Close() error
}

// NativeSetup prepares a transport's guests for hot functions: they load
// the module loader from PythonDir (absolute) once, before any execution (a
// confined child could not read it later). Compiled modules reach a guest
// with the answer to its native crossing (Session.AnswerWithModules).
type NativeSetup struct {
	PythonDir string
}

// Guest is a guest bound to one session.
type Guest interface {
	// Execute runs bootstrap.execute(request) and returns what it produced,
	// checked by Session.Accept (a result it refuses is an ErrViolation).
	// Every crossing of the program is answered by Session.Answer.
	// The session's context bounds it: at its deadline the program stops.
	Execute(request []byte) (*Result, error)
	// Entry runs a bootstrap entry point taking one string (prefix_begin,
	// prefix_feed, prefix_abort). The session's context bounds it, except
	// prefix_abort (protocol.EntryPrefixAbort), which drops a stream's
	// state and so runs whatever the context: a guest that outlives the
	// stream (the in-process interpreter, which every execution shares)
	// would otherwise keep that state for good.
	Entry(name string, arg []byte) error
	// Release ends the binding; the guest must keep no state of the session.
	Release()
}
