package bridge

// Transport is where guests run: in this process (bridge/inproc) or in
// sandboxed guest processes (the wire transport). The host drives every
// execution through it and never sees which one it is.
type Transport interface {
	// Acquire binds a guest to the session for one execution, or for one
	// stream (prefix_begin, prefix_feed..., then the final execute), which
	// must all reach the same guest. Release gives it back.
	Acquire(s *Session) (Guest, error)
	// Level names the isolation this transport gives ("inproc", "sandbox").
	Level() string
}

// Guest is a guest bound to one session.
type Guest interface {
	// Execute runs bootstrap.execute(request) and returns what it produced.
	// The session's context bounds it: at its deadline the program stops.
	Execute(request []byte) (*Result, error)
	// Entry runs a bootstrap entry point taking one string (prefix_begin,
	// prefix_feed, prefix_abort).
	Entry(name string, arg []byte) error
	// Release ends the binding; the guest must keep no state of the session.
	Release()
}
